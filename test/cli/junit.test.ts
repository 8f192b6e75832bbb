/** --junit writes well-formed JUnit XML that a parser reads back with the right counts, names and failure text. */
import { expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { join } from "node:path";
import { bash, runCli, scratch, shellSteps } from "./cli-helpers.ts";

test("JUnit report: valid XML, a suite per file, a case per test, failure with message and report, skipped", async () => {
  await using s = await scratch();
  await s.write("good.tui.json", {
    name: 'passes <&> "quoted"',
    session: bash(),
    steps: shellSteps("echo fine", "fine"),
  });
  await s.write("sub/bad.tui.json", [
    // markup characters on the screen and control characters in a message must not break the XML
    {
      name: "fails",
      session: bash(),
      steps: [
        ...shellSteps("printf '\\033[1mbold\\033[0m<tag>&\\n'", "bold<tag>&"),
        { type: "assert_text", pattern: "missing \u0001 & <absent>", timeoutMs: 200 },
      ],
    },
    { name: "skipped one", skip: true, session: bash(), steps: shellSteps("echo x", "x") },
  ]);
  const run = await runCli(["--junit", "reports/junit.xml"], { cwd: s.dir });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("JUnit report: reports/junit.xml");
  const xml = await Bun.file(join(s.dir, "reports", "junit.xml")).text();

  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    isArray: (name) => ["testsuite", "testcase"].includes(name),
  }).parse(xml);
  const root = doc.testsuites;
  expect(root).toMatchObject({ name: "tui-tester", tests: "3", failures: "1", errors: "0", skipped: "1" });
  const suites = Object.fromEntries(root.testsuite.map((suite: { name: string }) => [suite.name, suite]));
  expect(Object.keys(suites).sort()).toEqual(["good.tui.json", "sub/bad.tui.json"]);
  expect(suites["good.tui.json"]).toMatchObject({ tests: "1", failures: "0" });
  expect(suites["good.tui.json"].testcase[0]).toMatchObject({
    name: 'passes <&> "quoted"',
    classname: "good.tui.json",
  });
  expect(Number(suites["good.tui.json"].testcase[0].time)).toBeGreaterThan(0);

  const [failed, skipped] = suites["sub/bad.tui.json"].testcase;
  expect(failed.name).toBe("fails");
  expect(failed.failure.type).toBe("ASSERTION_FAILED");
  expect(failed.failure.message).toMatch(/^"missing \\x01 & <absent>" is not on the screen after waiting \d+ ms/);
  expect(failed.failure["#text"]).toContain("step 2 (assert_text) failed");
  expect(failed.failure["#text"]).toContain("screen at the failure");
  expect(failed.failure["#text"]).toContain("│bold<tag>&\n");
  expect(skipped).toMatchObject({ name: "skipped one", skipped: "" });
});
