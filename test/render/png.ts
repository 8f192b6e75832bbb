/** Decoding PNGs and sampling cells in tests. */
import { PNG } from "pngjs";
import { CELL_HEIGHT, CELL_WIDTH } from "../../src/render/svg.ts";

export interface Decoded {
  width: number;
  height: number;
  data: Buffer;
}

export const decodePng = (bytes: Uint8Array): Decoded => PNG.sync.read(Buffer.from(bytes));

export function pixel(png: Decoded, x: number, y: number): string {
  const i = (Math.floor(y) * png.width + Math.floor(x)) * 4;
  return `#${[0, 1, 2].map((k) => png.data[i + k]!.toString(16).padStart(2, "0")).join("")}`;
}

/** Every pixel colour inside one cell, with counts. */
export function cellColours(png: Decoded, row: number, col: number, scale = 1): Map<string, number> {
  const counts = new Map<string, number>();
  for (let y = row * CELL_HEIGHT * scale; y < (row + 1) * CELL_HEIGHT * scale; y++) {
    for (let x = col * CELL_WIDTH * scale; x < (col + 1) * CELL_WIDTH * scale; x++) {
      const c = pixel(png, x, y);
      counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  return counts;
}

/** The colour at the top-left corner of a cell (1 px in: backgrounds, never glyph ink for ordinary characters). */
export const cellBackground = (png: Decoded, row: number, col: number, scale = 1) =>
  pixel(png, col * CELL_WIDTH * scale + 1, row * CELL_HEIGHT * scale + 1);
