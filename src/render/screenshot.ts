/** A session's screen as a PNG or SVG file: settled snapshot -> SVG -> (PNG), bounded in pixels. */
import { writeFileSync } from "node:fs";
import { TuiError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { artifactPath, stamp } from "../util/artifact-path.ts";
import { svgToPng } from "./png.ts";
import { renderSvg } from "./svg.ts";

/** 4096 x 4096: a 200x100 terminal at scale 2 fits, a runaway scale does not allocate gigabytes. */
export const MAX_PIXELS = 4096 * 4096;

export interface Screenshot {
  format: "png" | "svg";
  path: string;
  /** Pixel size (PNG) or user units (SVG). */
  width: number;
  height: number;
  bytes: number;
  renderMs: number;
  /** The file's content: PNG bytes or SVG text. */
  content: Uint8Array | string;
}

/** `path` is relative to `cwd` (the server's); without one, a new file goes to `dir` (the output directory). */
export async function screenshot(
  session: Session,
  options: { format: "png" | "svg"; path?: string; dir: string; cwd: string; scale: number; overwrite?: boolean },
): Promise<Screenshot> {
  const path = artifactPath(
    options.path,
    options.dir,
    `${session.id}-${stamp()}.${options.format}`,
    options.cwd,
    options.overwrite,
  );
  const started = performance.now();
  const snap = await session.emulator.settledSnapshot({ grid: true });
  const screen = {
    cols: snap.cols,
    rows: snap.rows,
    cells: snap.grid ?? [],
    cursor: snap.cursor,
    cursorShape: session.emulator.cursorShape(),
  };
  const image = renderSvg(screen, session.emulator.liveColours());
  let content: Uint8Array | string = image.svg;
  let { width, height } = image;
  if (options.format === "png") {
    const pixels = width * height * options.scale * options.scale;
    if (pixels > MAX_PIXELS) {
      throw new TuiError(
        "INVALID_ARGUMENT",
        `A ${snap.cols}x${snap.rows} screen at scale ${options.scale} is ` +
          `${Math.round(pixels / 1e6)} megapixels, over the ${(MAX_PIXELS / 1e6) | 0} ` +
          `megapixel limit.`,
        `Use a smaller scale (at most ${Math.sqrt(MAX_PIXELS / (width * height)).toFixed(2)} here) or format: "svg".`,
      );
    }
    const png = await svgToPng(image.svg, options.scale, session.config.fonts);
    ({ width, height } = png);
    content = png.png;
  }
  const renderMs = Math.round(performance.now() - started);
  try {
    writeFileSync(path, content);
  } catch (error) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Cannot write the screenshot to "${path}": ${error instanceof Error ? error.message : String(error)}`,
      "Pass a path in a writable directory.",
    );
  }
  const bytes = typeof content === "string" ? Buffer.byteLength(content) : content.length;
  return { format: options.format, path, width, height, bytes, renderMs, content };
}
