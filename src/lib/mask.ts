/**
 * Masks for screen snapshots: parts of the screen that change from run to run (a clock, a pid, a
 * spinner) are replaced by ▒ before a golden comparison, so the rest can still be compared exactly.
 * A rectangle keeps its size (one ▒ per column). A text match, whose length may vary from run to
 * run (pid 812 / pid 1204), becomes a single ▒, so what follows it on the row moves left.
 */
import { BLANK_CELL } from "../term/cells.ts";
import type { CellInfo } from "../term/types.ts";

/**
 * A text (literal or RegExp; every match on every row) or a rectangle (0-based; rows default 1, cols
 * to the right edge).
 */
export type Mask = string | RegExp | { row: number; col?: number; rows?: number; cols?: number };

export const MASK_CHAR = "▒";

/** A copy of the grid with the masked cells drawn as ▒ in default colours (text matches collapsed to one). */
export function maskCells(grid: CellInfo[][], masks: Mask[]): CellInfo[][] {
  if (masks.length === 0) return grid;
  const rectangles = masks.filter((mask) => typeof mask === "object" && !(mask instanceof RegExp)) as Rectangle[];
  const texts = masks.filter((mask) => typeof mask === "string" || mask instanceof RegExp) as (string | RegExp)[];
  return grid.map((row, r) => {
    let cells = row.map((cell, c) =>
      rectangles.some((area) => inside(area, r, c)) && cell.width > 0 ? masked(cell.width) : cell,
    );
    for (const text of texts) cells = collapseMatches(cells, text);
    return cells;
  });
}

type Rectangle = { row: number; col?: number; rows?: number; cols?: number };

const masked = (width: number): CellInfo => ({ ...BLANK_CELL, char: MASK_CHAR.repeat(width), width });

function inside(area: Rectangle, row: number, col: number): boolean {
  const first = area.col ?? 0;
  return (
    row >= area.row &&
    row < area.row + (area.rows ?? 1) &&
    col >= first &&
    col < first + (area.cols ?? Number.POSITIVE_INFINITY)
  );
}

/** Every match of `text` in the row becomes one ▒ cell. */
function collapseMatches(row: CellInfo[], text: string | RegExp): CellInfo[] {
  // Where each cell's character starts in the row's text (a wide character spans two cells, one char).
  const starts: number[] = [];
  let line = "";
  for (const cell of row) {
    starts.push(line.length);
    line += cell.char;
  }
  const pattern =
    typeof text === "string"
      ? new RegExp(RegExp.escape(text), "g")
      : new RegExp(text.source, text.flags.includes("g") ? text.flags : `${text.flags}g`);
  const out: CellInfo[] = [];
  let next = 0;
  for (const match of line.matchAll(pattern)) {
    if (match[0].length === 0) continue;
    const end = match.index + match[0].length;
    const first = starts.findIndex((start) => start >= match.index);
    if (first < next) continue;
    out.push(...row.slice(next, first), masked(1));
    next = first;
    while (next < row.length && starts[next]! < end) next++;
  }
  return next === 0 ? row : [...out, ...row.slice(next)];
}

/**
 * The same masks on stored text rows (a golden, a kept screen): one cell per character, so a golden
 * written without masks (by hand, or before they were added) compares as a masked screen does.
 * Masking rows that are already masked changes nothing.
 */
export function maskRows(lines: string[], masks: Mask[], cols: number): string[] {
  if (masks.length === 0) return lines;
  const grid = lines.map((line) => [...line.padEnd(cols)].map((char): CellInfo => ({ ...BLANK_CELL, char, width: 1 })));
  return maskCells(grid, masks).map((row) =>
    row
      .map((c) => c.char)
      .join("")
      .trimEnd(),
  );
}
