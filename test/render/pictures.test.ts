/**
 * Pictures that are right: CJK and emoji drawn as glyphs, rounded corners round, the cursor in the
 * shape the app set (DECSCUSR); files written only when asked to overwrite; the output directory
 * made at start-up; a recording that cannot start fails start_session.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findCjkFonts } from "../../src/render/fonts.ts";
import { svgToPng } from "../../src/render/png.ts";
import { CELL_HEIGHT, CELL_WIDTH, renderSvg } from "../../src/render/svg.ts";
import { Emulator } from "../../src/term/emulator.ts";
import { connectStdio, type TestClient } from "../e2e/client.ts";
import { BUN, fixture } from "../helpers.ts";
import { cellColours, decodePng, pixel, type Decoded } from "./png.ts";

const dir = mkdtempSync(join(tmpdir(), "tui-tester-pictures-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A PNG of what `output` leaves on a cols x rows screen. */
async function picture(output: string, cols = 20, rows = 4, scale = 1): Promise<Decoded> {
  const emulator = new Emulator({ cols, rows, reply: () => undefined });
  emulator.write(output);
  await emulator.flushed();
  const snap = emulator.snapshot({ grid: true });
  const { svg } = renderSvg(
    { cols, rows, cells: snap.grid!, cursor: snap.cursor, cursorShape: emulator.cursorShape() },
    emulator.liveColours(),
  );
  emulator.dispose();
  return decodePng((await svgToPng(svg, scale)).png);
}

/** Pixels in a cell that are not the background (ink). */
const ink = (png: Decoded, row: number, col: number, scale = 1) => {
  let n = 0;
  for (const [colour, count] of cellColours(png, row, col, scale)) if (colour !== "#000000") n += count;
  return n;
};

const cjkFont = findCjkFonts().length > 0;
if (!cjkFont)
  console.warn(
    "skipping the CJK glyph check: no CJK font in the system font directories (apt-get install fonts-noto-cjk)",
  );

describe("PNG glyphs", () => {
  test.skipIf(!cjkFont)("a CJK character is drawn across its two cells, not as an empty box", async () => {
    const png = await picture("\x1b[?25l你");
    const left = ink(png, 0, 0);
    const right = ink(png, 0, 1);
    expect(left).toBeGreaterThan(15);
    expect(right).toBeGreaterThan(15);
    // a "tofu" box is a hollow rectangle: ink on its outline only. 你 has strokes through the middle.
    const middle = [...Array(CELL_WIDTH * 2).keys()].filter((x) => pixel(png, x, CELL_HEIGHT / 2) !== "#000000").length;
    expect(middle).toBeGreaterThan(2);
  });

  test("an emoji is drawn from the bundled Noto Emoji", async () => {
    const png = await picture("\x1b[?25l🚀"); // not in DejaVu (unlike 😀)
    // a character no font has is drawn as the missing-glyph box ("tofu"); the rocket must not be that box
    const tofu = await picture("\x1b[?25l\u{F0000}");
    expect(ink(png, 0, 0) + ink(png, 0, 1)).toBeGreaterThan(20);
    expect(png.data.equals(tofu.data)).toBe(false);
  });

  test("╭ is round: its corner pixel is empty and the arc passes inside the cell", async () => {
    const scale = 4;
    const png = await picture("\x1b[?25l╭─\r\n│", 4, 3, scale);
    const square = await picture("\x1b[?25l┌─\r\n│", 4, 3, scale);
    // where the lines would meet at a right angle (centre of the cell)
    const cx = Math.floor(CELL_WIDTH / 2) * scale + 2;
    const cy = (Math.floor(CELL_HEIGHT / 2) - 1) * scale + 2;
    expect(pixel(square, cx, cy)).not.toBe("#000000");
    expect(pixel(png, cx, cy)).toBe("#000000");
    // both arms still reach the cell edges, so ╭ joins ─ and │
    expect(pixel(png, CELL_WIDTH * scale - 1, cy)).not.toBe("#000000");
    expect(pixel(png, cx, CELL_HEIGHT * scale - 1)).not.toBe("#000000");
  });

  test("the cursor takes the DECSCUSR shape: block, underline, bar", async () => {
    const block = await picture("\x1b[2 q");
    const underline = await picture("\x1b[4 q");
    const bar = await picture("\x1b[6 q");
    const cursor = "#e5e5e5";
    expect(cellColours(block, 0, 0).get(cursor)).toBe(CELL_WIDTH * CELL_HEIGHT);
    expect(cellColours(underline, 0, 0).get(cursor)).toBe(CELL_WIDTH * 2);
    expect(pixel(underline, 4, CELL_HEIGHT - 1)).toBe(cursor);
    expect(pixel(underline, 4, 2)).toBe("#000000");
    expect(cellColours(bar, 0, 0).get(cursor)).toBe(CELL_HEIGHT * 2);
    expect(pixel(bar, 0, 9)).toBe(cursor);
    expect(pixel(bar, 6, 9)).toBe("#000000");
  });
});

describe("artifact files", () => {
  const out = join(dir, "made-at-start", "nested");
  let c: TestClient;
  beforeAll(async () => {
    // the real server process: creating the directory is main.ts's start-up
    c = await connectStdio({ cwd: dir, env: { TUI_TESTER_OUTPUT_DIR: out } });
  });
  afterAll(() => c[Symbol.asyncDispose]());

  test("TUI_TESTER_OUTPUT_DIR is created at start-up, so a first screenshot without a path works", async () => {
    await c.ok("list_sessions");
    expect(existsSync(out)).toBe(true);
    const { sessionId } = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    const shot = await c.ok("screenshot", { sessionId });
    expect(shot.path.startsWith(out)).toBe(true);
  });

  test("screenshot and start_recording refuse an existing file unless overwrite: true; the file is left as it was", async () => {
    const { sessionId } = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    const precious = join(dir, "precious.py");
    writeFileSync(precious, "print('keep me')\n");
    for (const [tool, args] of [
      ["screenshot", { format: "svg" }],
      ["start_recording", {}],
    ] as const) {
      const refused = await c.call(tool, { sessionId, path: precious, ...args });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain("already exists");
      expect(refused.text).toContain("overwrite: true");
      expect(await Bun.file(precious).text()).toBe("print('keep me')\n");
    }
    await c.ok("screenshot", { sessionId, path: precious, format: "svg", overwrite: true });
    expect(await Bun.file(precious).text()).toStartWith("<svg");
    await c.ok("start_recording", { sessionId, path: precious, overwrite: true });
    await c.ok("stop_recording", { sessionId });
  });

  test("the tools that write files are not annotated read-only", async () => {
    const { tools } = await c.client.listTools();
    for (const name of ["screenshot", "start_recording", "export_recording"]) {
      const annotations = tools.find((t) => t.name === name)?.annotations;
      expect(annotations).toBeDefined();
      expect(annotations?.readOnlyHint).not.toBe(true);
    }
  });

  test("start_session with a recording that cannot be written fails, and leaves no session running", async () => {
    const taken = join(dir, "taken.cast");
    writeFileSync(taken, "");
    const before = (await c.ok("list_sessions")).running;
    const failed = await c.call("start_session", { command: BUN, args: [fixture("echo-keys.ts")], record: taken });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain("already exists");
    expect((await c.ok("list_sessions")).running).toBe(before);
  });
});
