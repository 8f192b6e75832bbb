/**
 * Catastrophic regexes cannot freeze the server: RE2 runs `(a+)+$` in linear time, and a pattern
 * only the JS engine can run is stopped at its budget in a worker. Pings are answered meanwhile.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, type TestClient } from "../e2e/client.ts";

let c: TestClient;
let sessionId: string;
beforeAll(async () => {
  c = await connect();
  // 1,800 'a's, then a line that keeps `(a+)+$` from ever matching
  ({ sessionId } = await c.ok("start_session", {
    command: "bash",
    args: ["-c", "head -c 1800 /dev/zero | tr '\\0' a; printf '\\n!\\n'; exec sleep 600"],
    cols: 80,
    rows: 30,
  }));
  await c.ok("wait_for_text", { sessionId, pattern: "!" });
});
afterAll(async () => {
  await c.call("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  await c[Symbol.asyncDispose]();
});

/**
 * Run `call` and ping the server while it is pending. With a backtracking regex on the event loop
 * (each check 0.7-1.4 s) only a few pings got through a 3 s wait; now each is answered at once.
 */
async function pingWhilePending<T>(call: Promise<T>): Promise<{ result: T; pingsWhilePending: number }> {
  let settled = false;
  const tracked = call.finally(() => {
    settled = true;
  });
  let pingsWhilePending = 0;
  while (!settled && pingsWhilePending < 20) {
    await c.client.ping();
    if (!settled) pingsWhilePending++;
  }
  return { result: await tracked, pingsWhilePending };
}

test("(a+)+$ on 1,800 a's answers within the wait's timeout, with pings answered meanwhile", async () => {
  const { result, pingsWhilePending } = await pingWhilePending(
    c.call("wait_for_text", { sessionId, pattern: "(a+)+$", regex: true, timeoutMs: 3000 }),
  );
  expect(result.isError).toBe(true);
  expect(result.data).toMatchObject({ matched: false, timedOut: true, error: { code: "WAIT_TIMEOUT" } });
  // answered at its own timeout, not a backtracking check later (loose: the machine may be loaded)
  expect(result.data.elapsedMs).toBeLessThan(3000 + 1000);
  expect(pingsWhilePending).toBe(20);
});

test("a lookbehind pattern (JS engine) that backtracks forever ends with REGEX_TIMEOUT at the wait's deadline", async () => {
  const { result, pingsWhilePending } = await pingWhilePending(
    c.call("wait_for_text", { sessionId, pattern: "(a+)+(?<!x)b", regex: true, timeoutMs: 1500 }),
  );
  expect(result.isError).toBe(true);
  expect(result.data.error.code).toBe("REGEX_TIMEOUT");
  expect(result.text).toContain("RE2");
  expect(pingsWhilePending).toBe(20);
});

test("run_script with 20 catastrophic assert_text steps runs them all (linear time), and the server keeps answering", async () => {
  // today's code took 0.7-1.4 s per step here; on RE2 each is a linear scan
  const steps = Array.from({ length: 20 }, () => ({
    type: "assert_text",
    pattern: "(a+)+$",
    regex: true,
    negate: true,
  }));
  const result = await c.call("run_script", { sessionId, steps });
  expect(result.isError).toBe(false);
  expect(result.data).toMatchObject({ ok: true, stepsRun: 20 });
  await c.client.ping();
  expect((await c.ok("get_text", { sessionId })).text).toContain("!");
});
