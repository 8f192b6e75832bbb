/** The library's runTests: the run_tests runner from a script, with the same report. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { runTests } from "tui-tester";
import { bash, scratch, shellSteps } from "../cli/cli-helpers.ts";

let dir: Awaited<ReturnType<typeof scratch>>;
beforeAll(async () => {
  dir = await scratch();
  await dir.write("ok.tui.json", { name: "ok", session: bash(), steps: shellSteps("echo fine", "fine") });
  await dir.write("bad.tui.json", {
    name: "bad",
    session: bash(),
    steps: [...shellSteps("echo fine", "fine"), { type: "assert_text", pattern: "absent" }],
  });
});
afterAll(() => dir[Symbol.asyncDispose]());

test("runTests reports counts, the failing step and the screen, and its results", async () => {
  const run = await runTests({ paths: [dir.dir], cwd: dir.dir });
  expect(run.summary).toMatchObject({ passed: 1, failed: 1, total: 2, notRun: 0 });
  expect(run.report).toMatch(/^1 passed, 1 failed of 2 test/);
  expect(run.report).toContain("FAILED bad.tui.json › bad: step 2 (assert_text)");
  expect(run.report).toContain("screen at the failure");
  expect(run.results.map((r) => r.status)).toEqual(["failed", "passed"]);
}, 60_000);
