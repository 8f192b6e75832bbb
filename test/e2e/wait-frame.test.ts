/**
 * A wait that matches in the middle of a program's write burst returns once the burst is over: the
 * fixture draws its function bar, then (20 ms later) the panel above it, as htop does after F2.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { connect, type TestClient } from "./client.ts";
import { lacks } from "../helpers.ts";
import { FRAME_FINISH_MS } from "../../src/session/frame-finish.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "split-frame.py");

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

async function start(...args: string[]): Promise<string> {
  const { sessionId } = await c.ok("start_session", {
    command: "python3",
    args: [FIXTURE, ...args],
    cols: 80,
    rows: 24,
  });
  await c.ok("wait_for_text", { sessionId, pattern: "READY", timeoutMs: 10_000 });
  return sessionId;
}

describe.skipIf(lacks("python3", "the frame-finishing tests"))("frame finishing", () => {
  test("an inline waitFor on the bar returns the screen with the panel drawn too", async () => {
    const sessionId = await start("20");
    for (let n = 1; n <= 3; n++) {
      const r = await c.ok("send_keys", { sessionId, keys: ["x"], waitFor: { pattern: `F2Setup F10Quit ${n}` } });
      expect(r.waitFor.matched).toBe(true);
      expect(r.screen.after.text).toContain(`Display options ${n}`);
      expect(r.waitFor.frameUnfinished).toBeUndefined();
    }
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });

  test("a run_script check right after the wait sees the finished frame", async () => {
    const sessionId = await start("20");
    const r = await c.call("run_script", {
      sessionId,
      steps: [
        { type: "send_keys", keys: ["x"], waitFor: { pattern: "F2Setup F10Quit 1" } },
        { type: "assert_text", pattern: "Display options 1" },
        { type: "send_keys", keys: ["x"] },
        { type: "wait_for_text", pattern: "F2Setup F10Quit 2" },
        { type: "assert_text", pattern: "Display options 2" },
      ],
    });
    expect(r.isError).toBe(false);
    expect(r.data.ok).toBe(true);
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });

  test("a match on text already there before the key waits for the program's answer to the key", async () => {
    // htop's "F2Setup" label is on screen before F2 is pressed: the match comes before htop read the key
    const sessionId = await start("20");
    await c.ok("send_keys", { sessionId, keys: ["x"], waitFor: { pattern: "Display options 1" } });
    for (let n = 2; n <= 4; n++) {
      const r = await c.ok("send_keys", { sessionId, keys: ["x"], waitFor: { pattern: "F2Setup" } });
      expect(r.waitFor.matched).toBe(true);
      expect(r.screen.after.text).toContain(`Display options ${n}`);
    }
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });

  test("a synchronized update is never split", async () => {
    const sessionId = await start("20", "sync");
    const r = await c.ok("send_keys", { sessionId, keys: ["x"], waitFor: { pattern: "F2Setup F10Quit 1" } });
    expect(r.screen.after.text).toContain("Display options 1");
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });

  test("a program still writing is left at the bound, and the reply says so when it is", async () => {
    // test/unit/frame-finish.test.ts checks the bound itself; here, the whole call over MCP
    const sessionId = await start("0", "stream");
    const r = await c.call("send_keys", { sessionId, keys: ["x"], waitFor: { pattern: "F2Setup F10Quit 1" } });
    expect(r.data.waitFor.matched).toBe(true);
    expect(r.data.waitFor.frameMs).toBeLessThanOrEqual(FRAME_FINISH_MS + 200);
    expect(r.text.includes("still drawing")).toBe(r.data.waitFor.frameUnfinished === true);
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });
});
