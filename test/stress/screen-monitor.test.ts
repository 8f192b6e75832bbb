/**
 * A monitor on a big screen that changes without pause keeps its frames within its byte budget:
 * recording stops with truncated: true instead of growing (today: 357 MiB for 373 frames).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, type TestClient } from "../e2e/client.ts";
import { replayFrames } from "../../src/monitor/monitor.ts";
import { BUN, fixture } from "../helpers.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

/** The app's current frame number, read off the screen the next time it shows one. */
async function currentFrame(sessionId: string): Promise<number> {
  const seen = await c.ok("wait_for_text", { sessionId, pattern: "FRAME (\\d+) ", regex: true, timeoutMs: 20_000 });
  expect(seen.matched).toBe(true);
  return Number(seen.match[1]);
}

// Every row changes in every frame. (Unpaced floods of a 1000x500 screen are the engine's flow-control tests.)
for (const [cols, rows, paceMs, maxBytes] of [
  [1000, 500, 100, 1024 * 1024],
  [200, 50, 10, 256 * 1024],
] as const) {
  test(`${cols}x${rows} repainted every ${paceMs} ms: frames stay within maxBytes ${maxBytes}`, async () => {
    const { sessionId } = await c.ok("start_session", {
      command: BUN,
      args: [fixture("paint-app.ts"), "loop", String(paceMs)],
      cols,
      rows,
    });
    await currentFrame(sessionId);
    const { monitorId } = await c.ok("start_monitor", { sessionId, intervalMs: 10, maxBytes });
    // Let it run until the app has drawn many more frames than fit (matched on the raw output: cheap).
    // A monitor under load samples only some of the app's frames: 4 times what fits (a frame is about
    // a byte per cell) leaves it room to skip most and still reach maxBytes.
    const fit = Math.ceil(maxBytes / (cols * rows));
    const from = await currentFrame(sessionId);
    const until = from + Math.max(20, 4 * fit);
    await c.ok("wait_for_text", { sessionId, pattern: `FRAME ${until} `, matchScreen: false, timeoutMs: 60_000 });
    const result = await c.call("stop_monitor", { monitorId });
    expect(result.isError).toBe(false);
    // a reply over the 1 MiB cap is spilled whole to a file; the report is the same either way
    const report = result.data.spilled ? JSON.parse(readFileSync(result.data.spilled.jsonPath, "utf8")) : result.data;
    expect(report.truncated).toBe(true);
    expect(report.droppedFrames).toBeGreaterThan(0);
    expect(report.bytes).toBeLessThanOrEqual(maxBytes);
    // the reply is the kept frames plus the final screen, not one full screen per frame
    expect(JSON.stringify(report).length).toBeLessThan(maxBytes + 2 * cols * rows + 64 * 1024);
    // what was kept replays to whole screens
    const texts = replayFrames(report.frames);
    expect(texts.every((t) => t.split("\n").length === rows && t.includes("abcdefghij"))).toBe(true);
    expect(report.finalText.split("\n")).toHaveLength(rows);
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });
}
