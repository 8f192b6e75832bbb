/**
 * GIF export: a hand-made cast gives a known number of frames (idle folded, same-slot output merged,
 * a no-op write merged), and a real session exported over MCP ends on the session's own screen.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseCast } from "../../src/record/cast-file.ts";
import { castToGif } from "../../src/render/gif.ts";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN } from "../helpers.ts";
import { decodeGif } from "./gif-decode.ts";
import { decodePng } from "./png.ts";

const dir = mkdtempSync(join(tmpdir(), "tui-tester-gif-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cast = (events: [number, string, string][], version = 2) =>
  [JSON.stringify({ version: 2, width: 20, height: 4 }), ...events.map((e) => JSON.stringify(e))].join("\n") + "\n";

describe("castToGif", () => {
  test("one frame per changed screen: same-slot output merged, a no-op merged, a long pause folded", async () => {
    const text = cast([
      [0.5, "o", "A"],
      [1.0, "o", "B"],
      [1.01, "o", "C"], // same 1/30 s slot as B: one frame
      [1.5, "o", "\x1b[0m"], // changes nothing on screen: no frame
      [30, "o", "\r\nD"], // after a 28.5 s pause, cut to 2 s
    ]);
    const gif = await castToGif(parseCast(text), { speed: 1, maxIdleMs: 2000, fps: 30, scale: 1, holdLastMs: 1000 });
    const decoded = decodeGif(gif.gif);
    // blank (before the first output), A, BC, D
    expect(gif.frames).toBe(4);
    expect(decoded.frames.length).toBe(4);
    expect(decoded.width).toBe(20 * 9);
    expect(decoded.frames.map((f) => f.delayMs)).toEqual([500, 500, 2500, 1000]);
    expect(gif.durationMs).toBe(4500);
  });

  test("speed divides the times; a bad file is a clear error", async () => {
    const gif = await castToGif(
      parseCast(
        cast([
          [1, "o", "x"],
          [2, "o", "y"],
        ]),
      ),
      { speed: 2, maxIdleMs: 10_000, fps: 30, scale: 1, holdLastMs: 0 },
    );
    expect(decodeGif(gif.gif).frames.map((f) => f.delayMs)).toEqual([500, 500, 10]);
    expect(() => parseCast("not json\n")).toThrow(/asciicast header/);
    expect(() => parseCast('{"version":2,"width":10,"height":2}\n[1,"o"]\n[2,"o","x"]\n')).toThrow(
      /line 2.*\[time, code, data\]/,
    );
  });
});

describe("export_recording over MCP", () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await connect({ cwd: dir, env: { TUI_TESTER_OUTPUT_DIR: dir } });
  });
  afterAll(() => c[Symbol.asyncDispose]());

  test("the GIF decodes, and its last frame is the session's last screen; an existing out is refused", async () => {
    const script =
      "let n=0; const t=setInterval(()=>{process.stdout.write(`\\x1b[32mline ${++n}\\x1b[0m ╭─╮ 你好\\r\\n`); if(n===4){clearInterval(t); setInterval(()=>{},1000)}},120);";
    const { sessionId } = await c.ok("start_session", {
      command: BUN,
      args: ["-e", script],
      cols: 30,
      rows: 6,
      record: "s.cast",
    });
    await c.ok("wait_for_text", { sessionId, pattern: "line 4" });
    // Output quiet for 200 ms. This test is about the GIF: the script lives on in a 1 s interval, which
    // mode idle (the ready oracle, branch ready's concern) judges busy and waits out to its timeout.
    await c.ok("wait_for_idle", { sessionId, mode: "quiet", idleMs: 200 });
    const shot = await c.ok("screenshot", { sessionId, path: "last.png" });
    await c.ok("stop_recording", { sessionId });
    const out = await c.ok("export_recording", { path: "s.cast", out: "s.gif" });
    expect(out).toMatchObject({ out: join(dir, "s.gif"), format: "gif", width: 270, height: 108, truncated: false });
    const gif = decodeGif(new Uint8Array(await Bun.file(join(dir, "s.gif")).arrayBuffer()));
    expect(gif.frames.length).toBe(out.frames);
    // the bun banner-free output: 4 lines, each its own screen (120 ms apart, over one 1/30 s slot)
    expect(gif.frames.length).toBeGreaterThanOrEqual(4);
    const png = decodePng(new Uint8Array(await Bun.file(shot.path).arrayBuffer()));
    const last = gif.frames.at(-1)!.rgba;
    let worst = 0;
    for (let i = 0; i < last.length; i += 4)
      for (let k = 0; k < 3; k++) worst = Math.max(worst, Math.abs(last[i + k]! - png.data[i + k]!));
    // GIF colours are quantized (5-6-5 bits): equal up to that rounding
    expect(worst).toBeLessThanOrEqual(12);

    const again = await c.call("export_recording", { path: "s.cast", out: "s.gif" });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("already exists");
    expect(again.text).toContain("overwrite: true");
    expect((await c.call("export_recording", { path: "s.cast", out: "s.gif", overwrite: true })).isError).toBe(false);
    expect((await c.call("export_recording", { path: "missing.cast", out: "m.gif" })).text).toContain("does not exist");
  });
});
