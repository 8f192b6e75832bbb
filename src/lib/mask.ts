/**
 * Masks for screen snapshots: parts of the screen that change from run to run (a clock, a pid, a
 * spinner) are replaced by ▒ before a golden comparison, so the rest can still be compared exactly.
 */
import type { CellInfo } from "../term/types.ts";

/** A text (literal or RegExp; every match on every row) or a rectangle (0-based; rows/cols default to the edge). */
export type Mask = string | RegExp | { row: number; col?: number; rows?: number; cols?: number };

export const MASK_CHAR = "▒";

const blank: Omit<CellInfo, "char" | "width"> = {
  fg: "default",
  bg: "default",
  bold: false,
  italic: false,
  underline: false,
  inverse: false,
  dim: false,
  strikethrough: false,
  blink: false,
  invisible: false,
  overline: false,
};

/** A copy of the grid with every masked cell drawn as ▒ (per column it covers) in default colours. */
export function maskCells(grid: CellInfo[][], masks: Mask[]): CellInfo[][] {
  if (masks.length === 0) return grid;
  return grid.map((row, r) => {
    const hidden = new Set<number>();
    for (const mask of masks) for (const col of maskedColumns(row, r, mask)) hidden.add(col);
    if (hidden.size === 0) return row;
    return row.map((cell, c) => (hidden.has(c) && cell.width > 0 ? { ...blank, char: MASK_CHAR.repeat(cell.width), width: cell.width } : cell));
  });
}

function maskedColumns(row: CellInfo[], r: number, mask: Mask): number[] {
  if (typeof mask === "object" && !(mask instanceof RegExp)) {
    const inRows = r >= mask.row && r < mask.row + (mask.rows ?? Number.POSITIVE_INFINITY);
    if (!inRows) return [];
    const first = mask.col ?? 0;
    const last = Math.min(row.length, first + (mask.cols ?? row.length));
    return Array.from({ length: Math.max(0, last - first) }, (_, i) => first + i);
  }
  // Where each cell's character starts in the row's text (wide characters span two cells, one char).
  const starts: number[] = [];
  let text = "";
  for (const cell of row) {
    starts.push(text.length);
    text += cell.char;
  }
  const pattern = typeof mask === "string" ? new RegExp(RegExp.escape(mask), "g") : new RegExp(mask.source, mask.flags.includes("g") ? mask.flags : `${mask.flags}g`);
  const columns: number[] = [];
  for (const match of text.matchAll(pattern)) {
    if (match[0].length === 0) continue;
    const end = match.index + match[0].length;
    starts.forEach((start, col) => {
      if (start >= match.index && start < end) columns.push(col);
    });
  }
  return columns;
}

/**
 * The same masks on stored text rows (a golden, a kept screen): one cell per character, so a golden
 * written without masks (by hand, or before they were added) compares as a masked screen does.
 * Masking rows that are already masked changes nothing.
 */
export function maskRows(lines: string[], masks: Mask[], cols: number): string[] {
  if (masks.length === 0) return lines;
  const grid = lines.map((line) => [...line.padEnd(cols)].map((char): CellInfo => ({ ...blank, char, width: 1 })));
  return maskCells(grid, masks).map((row) => row.map((c) => c.char).join("").trimEnd());
}
