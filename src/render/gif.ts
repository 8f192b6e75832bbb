/**
 * A recording as an animated GIF: replayed frame by frame (replay.ts), each screen drawn through
 * the screenshot path (SVG -> resvg), encoded with gifenc. Pixels that did not change since the
 * previous frame are written transparent, so a frame costs only what changed.
 */
import { applyPalette, GIFEncoder, quantize } from "gifenc";
import { cancelled, TuiError } from "../errors.ts";
import { retime, type Cast } from "../record/cast-file.ts";
import type { TerminalTheme } from "../term/types.ts";
import { svgToPixels } from "./png.ts";
import { replayFrames, MAX_FRAMES, type ReplayFrame } from "./replay.ts";
import { CELL_HEIGHT, CELL_WIDTH, renderSvg, type ScreenImage } from "./svg.ts";

export interface GifOptions {
  /** Playback speed factor (2 = twice as fast). */
  speed: number;
  /** Pauses longer than this are shortened to it. */
  maxIdleMs: number;
  /**
   * Highest frame rate; screens shown for less than 1/fps are merged into the next. At most 50 (GIF delays are in
   * 1/100 s).
   */
  fps: number;
  scale: number;
  theme?: Partial<TerminalTheme>;
  /** Font files besides the bundled ones (TUI_TESTER_FONTS). */
  fonts?: readonly string[];
  /** How long the last screen stays before the GIF loops. */
  holdLastMs?: number;
  /** Stops the work between frames (a cancelled tool call). */
  signal?: AbortSignal;
}

export interface GifResult {
  gif: Uint8Array;
  frames: number;
  width: number;
  height: number;
  /** Playback length of the GIF. */
  durationMs: number;
  /** True when the recording had more than MAX_FRAMES screens and the GIF stops there. */
  truncated: boolean;
}

/** A GIF of more pixels than this per frame is refused (a 250x100 terminal at scale 2). */
export const MAX_GIF_PIXELS = 4500 * 3600;

export async function castToGif(cast: Cast, options: GifOptions): Promise<GifResult> {
  const width = Math.round(cast.cols * CELL_WIDTH * options.scale);
  const height = Math.round(cast.rows * CELL_HEIGHT * options.scale);
  if (width * height > MAX_GIF_PIXELS) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `A ${cast.cols}x${cast.rows} recording at scale ${options.scale} is ` +
        `${width}x${height} pixels, over the GIF limit.`,
      "Use a smaller scale.",
    );
  }
  const events = retime(cast.events, { speed: options.speed, maxIdleMs: options.maxIdleMs });
  const slotMs = 1000 / Math.min(50, options.fps);
  const encoder = GIFEncoder();
  let previous: Uint8Array | undefined;
  let pending: { index: Uint8Array; palette: number[][]; transparentIndex: number; atMs: number } | undefined;
  let written = 0;
  let frames = 0;
  let lastAt = 0;
  // A frame's delay is known when the next frame arrives; delays are rounded from absolute times so errors do not add
  // up.
  const flush = (nextAtMs: number) => {
    if (!pending) return;
    const endCs = Math.round(nextAtMs / 10);
    const delayMs = Math.max(10, (endCs - written) * 10);
    const { index, palette, transparentIndex } = pending;
    encoder.writeFrame(index, width, height, {
      palette,
      delay: delayMs,
      ...(frames === 0 ? {} : { transparent: true, transparentIndex, dispose: 1 }),
    });
    written += delayMs / 10;
    frames++;
    pending = undefined;
  };
  let truncated = false;
  let drawn: DrawnScreen | undefined;
  for await (const frame of replayFrames(cast, events, slotMs, options.theme)) {
    if (options.signal?.aborted) throw cancelled("export_recording");
    drawn = await drawFrame(frame, drawn, width, height, options.scale, options.fonts ?? []);
    flush(frame.atMs);
    pending = { ...encodeFrame(drawn.rgba, previous), atMs: frame.atMs };
    previous = drawn.rgba;
    lastAt = frame.atMs;
    if (frames + 1 >= MAX_FRAMES) {
      truncated = true;
      break;
    }
  }
  const endMs = Math.max(lastAt, events.at(-1)?.atMs ?? 0) + (options.holdLastMs ?? 1000);
  flush(endMs);
  encoder.finish();
  return { gif: encoder.bytes(), frames, width, height, durationMs: written * 10, truncated };
}

interface DrawnScreen {
  rgba: Uint8Array;
  /** Per row: its cells, and the cursor when it is on that row. */
  rowKeys: string[];
  /** Size and colours: when they change, every row is drawn again. */
  frameKey: string;
}

/**
 * The frame's pixels. Only the band of rows that changed since the previous frame goes through
 * SVG and resvg (typing changes a row or two), pasted over a copy of the previous frame.
 */
async function drawFrame(
  frame: ReplayFrame,
  before: DrawnScreen | undefined,
  width: number,
  height: number,
  scale: number,
  fonts: readonly string[],
): Promise<DrawnScreen> {
  const { screen, colours } = frame;
  const frameKey = JSON.stringify([
    screen.cols,
    screen.rows,
    colours.bg,
    colours.fg,
    colours.cursor,
    screen.cursorShape,
  ]);
  const cursorKey = JSON.stringify(screen.cursor);
  const rowKeys = screen.cells.map((row, r) => JSON.stringify(row) + (screen.cursor.row === r ? cursorKey : ""));
  const changed = rowKeys.flatMap((key, r) =>
    before && before.frameKey === frameKey && before.rowKeys[r] === key ? [] : [r],
  );
  if (!before || before.frameKey !== frameKey || changed.length === 0) {
    const { svg } = renderSvg(screen, colours);
    return { rgba: fitCanvas(await svgToPixels(svg, scale, fonts), width, height), rowKeys, frameKey };
  }
  // Glyphs overhang their row by a pixel or two (CJK, underscores), into the rows either side: the
  // band pasted is the changed rows and one row around them, drawn with one more row of context.
  const pasteFirst = Math.max(0, changed[0]! - 1);
  const pasteLast = Math.min(screen.rows - 1, changed.at(-1)! + 1);
  const first = Math.max(0, pasteFirst - 1);
  const last = Math.min(screen.rows - 1, pasteLast + 1);
  const band: ScreenImage = {
    ...screen,
    rows: last - first + 1,
    cells: screen.cells.slice(first, last + 1),
    cursor: {
      ...screen.cursor,
      row: screen.cursor.row - first,
      visible: screen.cursor.visible && screen.cursor.row >= first && screen.cursor.row <= last,
    },
  };
  const image = await svgToPixels(renderSvg(band, colours).svg, scale, fonts);
  const rgba = before.rgba.slice();
  const y0 = Math.round((pasteFirst - first) * CELL_HEIGHT * scale);
  const y1 = Math.min(image.height, Math.round((pasteLast - first + 1) * CELL_HEIGHT * scale));
  const top = Math.round(pasteFirst * CELL_HEIGHT * scale);
  const w = Math.min(width, image.width) * 4;
  for (let y = y0; y < y1 && top + y - y0 < height; y++)
    rgba.set(image.pixels.subarray(y * image.width * 4, y * image.width * 4 + w), (top + y - y0) * width * 4);
  return { rgba, rowKeys, frameKey };
}

/**
 * Indexed pixels: the first frame whole, later frames only where they differ from `previous` (the rest transparent).
 */
function encodeFrame(
  rgba: Uint8Array,
  previous: Uint8Array | undefined,
): { index: Uint8Array; palette: number[][]; transparentIndex: number } {
  const pixelCount = rgba.length / 4;
  if (!previous) {
    const palette = quantize(rgba, 256);
    return { index: applyPalette(rgba, palette), palette, transparentIndex: -1 };
  }
  const changed: number[] = [];
  for (let p = 0; p < pixelCount; p++) {
    const o = p * 4;
    if (rgba[o] !== previous[o] || rgba[o + 1] !== previous[o + 1] || rgba[o + 2] !== previous[o + 2]) changed.push(p);
  }
  // Only the changed pixels are quantized: 255 colours for them, the last slot means "unchanged".
  const compact = new Uint8Array(Math.max(1, changed.length) * 4);
  changed.forEach((p, i) => compact.set(rgba.subarray(p * 4, p * 4 + 4), i * 4));
  const palette = quantize(compact, 255);
  const compactIndex = applyPalette(compact, palette);
  const transparentIndex = palette.length;
  palette.push([0, 0, 0]);
  const index = new Uint8Array(pixelCount).fill(transparentIndex);
  changed.forEach((p, i) => (index[p] = compactIndex[i]!));
  return { index, palette, transparentIndex };
}

/** The rendered screen placed top-left on the GIF's canvas (a resized screen is cropped or padded in black). */
function fitCanvas(
  image: { pixels: Uint8Array; width: number; height: number },
  width: number,
  height: number,
): Uint8Array {
  if (image.width === width && image.height === height) return image.pixels;
  const out = new Uint8Array(width * height * 4);
  for (let i = 3; i < out.length; i += 4) out[i] = 255;
  const w = Math.min(width, image.width);
  for (let y = 0; y < Math.min(height, image.height); y++)
    out.set(image.pixels.subarray(y * image.width * 4, (y * image.width + w) * 4), y * width * 4);
  return out;
}
