/**
 * run_script over MCP: assert_text keeps its instant check unless the step sets timeoutMs, and the
 * outcome steps expect_exit and expect_file, as the text view shows them.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, PLAIN_BASH, type TestClient } from "./client.ts";

let c: TestClient;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tui-outcomes-"));
  c = await connect({ cwd: dir });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  await rm(dir, { recursive: true, force: true });
});

async function bash(): Promise<string> {
  const { sessionId } = await c.ok("start_session", PLAIN_BASH);
  await c.ok("wait_for_text", { sessionId, pattern: "$ " });
  return sessionId;
}

const late = { type: "send_text", text: "sleep 0.3; echo LATE-$((20+1))\r", captureScreen: false };

test("run_script's assert_text checks once by default; with timeoutMs it waits for the text", async () => {
  const sessionId = await bash();
  const once = await c.call("run_script", { sessionId, steps: [late, { type: "assert_text", pattern: "LATE-21" }] });
  expect(once.isError).toBe(true);
  expect(once.text).toContain('"LATE-21" is not on the screen.');
  expect(once.data.results[1].elapsedMs).toBeLessThan(300);

  const waited = await c.call("run_script", {
    sessionId,
    steps: [{ type: "send_keys", keys: "ctrl+l" }, late, { type: "assert_text", pattern: "LATE-21", timeoutMs: 5000 }],
  });
  expect(waited.isError).toBe(false);
  expect(waited.text).toMatch(/Step 2 assert_text ok: Assertion passed: "LATE-21" present after \d+ ms/);
  expect(waited.data.results[2].result.waitedMs).toBeGreaterThanOrEqual(150);

  // a waiting negation that never holds: the message says how long, and the text view shows the screen
  const stuck = await c.call("run_script", {
    sessionId,
    steps: [{ type: "assert_text", pattern: "LATE-21", negate: true, timeoutMs: 200 }],
    returnFinalSnapshot: false,
  });
  expect(stuck.isError).toBe(true);
  expect(stuck.text).toMatch(
    /"LATE-21" is still on the screen after waiting \d+ ms \(timeoutMs 200, looked \d+ times\)/,
  );
  expect(stuck.text).toContain("LATE-21\n");
});

test("expect_exit and expect_file in run_script: passes, and failures naming what differed with the screen", async () => {
  const sessionId = await bash();
  const ok = await c.call("run_script", {
    sessionId,
    steps: [
      { type: "send_text", text: "printf 'a=1\\n' > made.txt; exit 4\r", captureScreen: false },
      { type: "expect_file", path: "made.txt", equals: "a=1\n" },
      { type: "expect_exit", code: 4 },
    ],
  });
  expect(ok.text).toContain("Step 2 expect_exit ok: The program exited with code 4, as expected");
  expect(ok.isError).toBe(false);
  const wrong = await c.call("run_script", {
    sessionId,
    steps: [
      { type: "expect_exit", continueOnError: true },
      { type: "expect_file", path: "made.txt", contains: "b=2", timeoutMs: 0 },
    ],
  });
  expect(wrong.isError).toBe(true);
  expect(wrong.text).toContain(
    "Step 0 expect_exit FAILED ASSERTION_FAILED: The program ended with exit code 4: expected exit code 0, got 4.",
  );
  expect(wrong.text).toContain(
    `Step 1 expect_file FAILED ASSERTION_FAILED: File ${join(dir, "made.txt")} does not contain "b=2"`,
  );
  expect(wrong.text).toContain("|a=1|");
  expect(wrong.text).toContain("exit 4");
});
