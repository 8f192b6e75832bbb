/** One session, several calls at once: inputs keep their order, reads and waits do not hold inputs up. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BUN, fixture } from "../helpers.ts";
import { connect, PLAIN_BASH, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

test("a wait sent before the input that satisfies it sees that input's screen", async () => {
  const { sessionId } = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] });
  await c.ok("wait_for_text", { sessionId, pattern: "READY" });
  // echo-keys prints each input chunk as hex: "hello" -> "KEY 68656c6c6f"
  const wait = c.call("wait_for_text", { sessionId, pattern: "KEY 68656c6c6f", timeoutMs: 10_000 });
  const input = c.call("send_text", { sessionId, text: "hello" });
  const [waited, sent] = await Promise.all([wait, input]);
  expect(sent.isError).toBe(false);
  expect(waited.isError).toBe(false);
  expect(waited.data.matched).toBe(true);
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});

test("inputs sent at once arrive in call order; a pending wait and reads do not block them", async () => {
  const { sessionId } = await c.ok("start_session", PLAIN_BASH);
  await c.ok("wait_for_text", { sessionId, pattern: "$ " });
  const never = c.call("wait_for_text", { sessionId, pattern: "never-shown-marker", timeoutMs: 60_000 });
  const calls = ["a", "b", "c", "d", "e"].map((k) => c.call("send_text", { sessionId, text: k, captureScreen: false }));
  const reads = [c.call("get_text", { sessionId }), c.call("snapshot", { sessionId })];
  const results = await Promise.all([...calls, ...reads]);
  for (const r of results) expect(r.isError).toBe(false);
  await c.ok("wait_for_text", { sessionId, pattern: "$ abcde" });
  const cancel = await c.call("get_text", { sessionId });
  expect(cancel.data.text).toContain("$ abcde");
  // the wait is still pending; end the session so it returns
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  const ended = await never;
  expect(ended.data.matched).toBe(false);
});

test("start_monitor and stop_session do not wait behind a long type_text; the typing ends with the session", async () => {
  const { sessionId } = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] });
  await c.ok("wait_for_text", { sessionId, pattern: "READY" });
  // 600 characters at 10 per second: a minute of typing
  const typing = c.call("type_text", { sessionId, text: "x".repeat(600), cps: 10 });
  await c.ok("wait_for_text", { sessionId, pattern: "KEY 78" });
  const { monitorId } = await c.ok("start_monitor", { sessionId, intervalMs: 20 });
  await c.ok("wait_for_text", { sessionId, pattern: "KEY 78\\s+KEY 78\\s+KEY 78", regex: true });
  const report = await c.ok("stop_monitor", { monitorId });
  expect(report.frameCount).toBeGreaterThan(0);
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  const typed = await typing;
  expect(typed.isError).toBe(false);
  expect(typed.data.chars).toBeLessThan(600);
  expect(typed.data.chars + typed.data.untyped).toBe(600);
  expect(typed.data.bytesSent).toBe(typed.data.chars);
});
