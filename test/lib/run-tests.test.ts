/** The library's runTests: `tui-tester test` from a script, its counts, results and report. */
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

test("runTests reports counts, the failing step and the screen, and each result", async () => {
  const run = await runTests({ cwd: dir.dir });
  expect(run.summary).toMatchObject({ passed: 1, failed: 1 });
  expect(run.exitCode).toBe(1);
  expect(run.report).toContain("step 2 (assert_text) failed");
  expect(run.report).toContain("screen at the failure");
  expect(run.results.map((r) => r.status).sort()).toEqual(["failed", "passed"]);
  const only = await runTests({ cwd: dir.dir, grep: "ok" });
  expect(only.summary).toMatchObject({ passed: 1, failed: 0 });
}, 60_000);

test("a path that does not exist is an error naming it", async () => {
  await expect(runTests({ cwd: dir.dir, paths: ["missing-dir"] })).rejects.toThrow("missing-dir");
});
