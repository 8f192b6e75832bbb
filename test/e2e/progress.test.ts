/** Long waits report MCP progress when asked, and a cancelled request really stops its wait. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connectStdio, type TestClient } from "./client.ts";

let c: TestClient;
let sessionId: string;
beforeAll(async () => {
  c = await connectStdio();
  sessionId = (await c.ok("start_session", { command: "cat" })).sessionId;
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

test("a wait longer than a second sends progress notifications to a client with a progressToken", async () => {
  const progress: unknown[] = [];
  const result = await c.call(
    "wait_for_text",
    { sessionId, pattern: "never", timeoutMs: 2500 },
    { onprogress: (p) => progress.push(p) },
  );
  expect(result.data.timedOut).toBe(true);
  expect(progress.length).toBeGreaterThanOrEqual(2);
  expect(progress[0]).toMatchObject({ progress: 1 });
});

test("cancelling a wait frees the session at once (the next call on it is not queued behind the wait)", async () => {
  const controller = new AbortController();
  const waiting = c.call(
    "wait_for_text",
    { sessionId, pattern: "never", timeoutMs: 600_000 },
    { signal: controller.signal },
  );
  // let the request reach the server and start waiting
  await c.ok("list_sessions");
  controller.abort();
  await expect(waiting).rejects.toThrow();
  const started = performance.now();
  const echoed = await c.ok("send_text", { sessionId, text: "ping\r", waitFor: { pattern: "ping" } });
  expect(echoed.waitFor.matched).toBe(true);
  expect(performance.now() - started).toBeLessThan(5000);
});
