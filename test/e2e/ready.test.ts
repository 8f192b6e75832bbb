/** The ready oracle through the MCP protocol: what the reply says about how an input settled. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BUN, fixture } from "../helpers.ts";
import { connect, type TestClient } from "./client.ts";

const linux = process.platform === "linux";
let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

test.skipIf(!linux)(
  "a delayed answer settles idle with the answer on screen, and the text says so in one line",
  async () => {
    const { sessionId } = await c.ok("start_session", {
      command: BUN,
      args: [fixture("two-phase-app.ts"), "200"],
      cols: 40,
      rows: 10,
    });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    const r = await c.call("send_keys", { sessionId, keys: "x" });
    expect(r.data.screen).toMatchObject({ settledBy: "idle", quiet: true });
    expect(r.data.screen.after.text).toContain("PHASE2 1");
    expect(r.text).toMatch(/Settled in \d+ ms: bun(\.exe)? is waiting for input\./);
    expect(r.text).not.toContain("use waitFor");

    const waited = await c.call("send_keys", { sessionId, keys: "x", waitFor: { pattern: "PHASE1 2" } });
    expect(waited.data.screen.settledBy).toBe("waitFor");
    expect(waited.text).not.toContain("use waitFor");

    const idle = await c.call("wait_for_idle", { sessionId });
    expect(idle.data).toMatchObject({ idle: true, settledBy: "idle" });
    expect(idle.data.screen.text).toContain("PHASE2 2");
    expect(idle.text).toMatch(/^Idle after \d+ ms: bun(\.exe)? is waiting for input/);
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  },
);

test("wait_for_idle mode quiet keeps the output window", async () => {
  const { sessionId } = await c.ok("start_session", {
    command: BUN,
    args: [fixture("two-phase-app.ts"), "20"],
    cols: 40,
    rows: 10,
  });
  await c.ok("wait_for_text", { sessionId, pattern: "READY" });
  const quiet = await c.ok("wait_for_idle", { sessionId, mode: "quiet", idleMs: 50 });
  expect(quiet).toMatchObject({ idle: true, settledBy: "quiet" });
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});
