/** finishFrame's bound: a program whose output never drains is left at FRAME_FINISH_MS, and it says so. */
import { expect, test } from "bun:test";
import { FRAME_FINISH_MS, finishFrame } from "../../src/session/frame-finish.ts";
import type { Session } from "../../src/session/session.ts";

/** A session whose parser always has bytes queued (a flood), or none (done). */
function fakeSession(queued: number): Session {
  const none = () => () => undefined;
  return {
    running: true,
    pid: process.pid,
    config: { ready: "quiet" },
    outputBacklog: 0,
    lastOutputAt: performance.now() - 1000,
    onOutput: none,
    onExit: none,
    onInput: none,
    onReply: none,
    emulator: { pendingBytes: queued, syncHeld: false, flushed: async () => undefined, onParsed: none },
  } as unknown as Session;
}

test("output still queued at the bound: unfinished, at about FRAME_FINISH_MS", async () => {
  const frame = await finishFrame(fakeSession(1));
  expect(frame.unfinished).toBe(true);
  expect(frame.ms).toBeGreaterThanOrEqual(FRAME_FINISH_MS - 1);
});

test("nothing queued and long quiet: finished at once", async () => {
  const frame = await finishFrame(fakeSession(0));
  expect(frame.unfinished).toBe(false);
  expect(frame.ms).toBeLessThan(FRAME_FINISH_MS);
});
