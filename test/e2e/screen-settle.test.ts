/** The adaptive settle reports what it did, and catches an app's second chunk 60 ms after the first. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BUN, fixture } from "../helpers.ts";
import { connect, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

async function twoPhase(gapMs: number): Promise<string> {
  const { sessionId } = await c.ok("start_session", {
    command: BUN,
    args: [fixture("two-phase-app.ts"), String(gapMs)],
    cols: 40,
    rows: 10,
  });
  await c.ok("wait_for_text", { sessionId, pattern: "READY" });
  return sessionId;
}

test("default settle waits out a 60 ms gap and says it ended quiet", async () => {
  const sessionId = await twoPhase(60);
  for (let round = 1; round <= 3; round++) {
    const r = await c.ok("send_keys", { sessionId, keys: "x" });
    expect(r.screen.settle).toBe("adaptive");
    expect(r.screen.after.text).toContain(`PHASE1 ${round}`);
    expect(r.screen.after.text).toContain(`PHASE2 ${round}`);
    expect(r.screen.quiet).toBe(true);
    // waitedMs is what it really waited: at least until the second chunk came out
    expect(r.screen.waitedMs).toBeGreaterThanOrEqual(60);
    expect(r.screen.waitAfterMs).toBe(r.screen.waitedMs);
  }
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});

test("a later chunk is reported as not quiet with a short fixed settle, and waitFor catches it", async () => {
  const sessionId = await twoPhase(400);
  const fixed = await c.ok("send_keys", { sessionId, keys: "x", waitAfterMs: 10 });
  expect(fixed.screen).toMatchObject({ settle: "fixed", waitAfterMs: 10 });
  // the adaptive settle would stop 100 ms after PHASE1; waitFor is how to catch the rest
  const caught = await c.ok("send_keys", { sessionId, keys: "x", waitFor: { pattern: "PHASE2 2" } });
  expect(caught.screen.settle).toBe("waitFor");
  expect(caught.screen.after.text).toContain("PHASE2 2");
  expect(caught.screen.waitedMs).toBeGreaterThanOrEqual(caught.waitFor.elapsedMs);
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});

test("an app that keeps writing ends the settle at its bound with quiet: false", async () => {
  const { sessionId } = await c.ok("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile", "-c", "read -n1; exec yes tick"],
    cols: 40,
    rows: 10,
  });
  const r = await c.ok("send_keys", { sessionId, keys: "x" });
  expect(r.screen.settle).toBe("adaptive");
  expect(r.screen.quiet).toBe(false);
  expect(r.screen.after.text).toContain("tick");
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});
