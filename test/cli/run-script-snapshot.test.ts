/** expect_snapshot inside run_script over MCP, as an agent uses it: a diff back, files only when asked. */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { connect } from "../e2e/client.ts";
import { scratch } from "./cli-helpers.ts";

test("run_script expect_snapshot: missing fails without writing, update writes, mismatch returns the row diff", async () => {
  await using s = await scratch();
  await using c = await connect();
  const { sessionId } = await c.ok("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile"],
    env: { PS1: "t$ " },
    cols: 30,
    rows: 5,
    cwd: s.dir,
  });
  await c.ok("wait_for_text", { sessionId, pattern: "t$" });
  await c.ok("send_text", {
    sessionId,
    text: "echo one\r",
    waitFor: { pattern: "^one$", regex: true, regexFlags: "m" },
  });
  const golden = join(s.dir, "__snapshots__", "shot.txt");
  // a failed script's full result, whether or not the server marks it isError
  const script = async (steps: Record<string, unknown>[]) => (await c.call("run_script", { sessionId, steps })).data;

  const missing = await script([{ type: "expect_snapshot", name: "shot" }]);
  expect(missing.ok).toBe(false);
  expect(missing.results[0].error).toMatchObject({
    code: "ASSERTION_FAILED",
    message: `No golden snapshot "shot" at ${golden}.`,
  });
  expect(missing.results[0].result.actual).toEqual(["t$ echo one", "one", "t$", "", ""]);
  expect(existsSync(golden)).toBe(false);

  const written = await c.ok("run_script", {
    sessionId,
    steps: [{ type: "expect_snapshot", name: "shot", update: "missing" }],
  });
  expect(written.results[0].result).toMatchObject({ status: "written", file: golden });
  expect(await Bun.file(golden).text()).toBe("t$ echo one\none\nt$\n\n\n");

  await c.ok("send_text", {
    sessionId,
    text: "echo two\r",
    waitFor: { pattern: "^two$", regex: true, regexFlags: "m" },
  });
  const mismatch = await script([
    { type: "expect_snapshot", name: "shot", timeoutMs: 100 },
    { type: "sleep", durationMs: 1 },
  ]);
  expect(mismatch).toMatchObject({ ok: false, stoppedAtStep: 0 });
  const step = mismatch.results[0];
  expect(step.result.changedRows).toEqual([
    { row: 2, expected: "t$", actual: "t$ echo two" },
    { row: 3, expected: "", actual: "two" },
    { row: 4, expected: "", actual: "t$" },
  ]);
  expect(step.result.diff).toContain("- row 2 |t$|\n  + row 2 |t$ echo two|");
  expect(await Bun.file(golden).text()).toBe("t$ echo one\none\nt$\n\n\n");

  // a region the golden file matches: passes, nothing written
  const region = await c.ok("run_script", {
    sessionId,
    steps: [
      { type: "expect_snapshot", name: "shot", region: { row: 0, rows: 2 }, dir: "elsewhere", update: "missing" },
      { type: "expect_snapshot", name: "shot", region: { row: 0, rows: 2 }, dir: "elsewhere" },
    ],
  });
  expect(region.ok).toBe(true);
  expect(region.results.map((r: { result: { status: string } }) => r.result.status)).toEqual(["written", "matched"]);
  expect(await Bun.file(join(s.dir, "elsewhere", "shot.txt")).text()).toBe("t$ echo one\none\n");

  const bad = await c.call("run_script", { sessionId, steps: [{ type: "expect_snapshot", name: "../escape" }] });
  expect(bad.isError).toBe(true);
  expect(bad.text).toContain("name may hold letters, digits");
});
