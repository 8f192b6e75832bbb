/**
 * The compact `cells` form: per row, runs of cells with equal attributes, not an object per cell.
 * Default colours and absent attributes are left out, and a row's trailing blank default cells are
 * dropped, so a typical screen costs little more than its text. The work is bounded: at most
 * MAX_CELLS cells per call; a larger region is cut after the last whole row that fits and says so.
 */
import type { IBufferCell, Terminal } from "@xterm/headless";
import type { CellInfo, CellRegion, CellRun, CellsResult } from "./types.ts";

/** Cells read per call (a 300x100 screen fits; 1000x500 takes ten calls of 50 rows), ~0.1 s each. */
export const MAX_CELLS = 50_000;

/** A space in the default colours with no attribute set. */
export const BLANK_CELL: Readonly<CellInfo> = Object.freeze({
  char: " ",
  width: 1,
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
});

/** Attribute names in the order they are listed in a run's `attrs`, and how to read each. */
const ATTRIBUTES: [name: string, on: (cell: IBufferCell) => number | boolean][] = [
  ["bold", (c) => c.isBold()],
  ["dim", (c) => c.isDim()],
  ["italic", (c) => c.isItalic()],
  ["underline", (c) => c.isUnderline()],
  ["blink", (c) => c.isBlink()],
  ["inverse", (c) => c.isInverse()],
  ["invisible", (c) => c.isInvisible()],
  ["strikethrough", (c) => c.isStrikethrough()],
  ["overline", (c) => c.isOverline()],
];

/** "default", a palette index as "p<n>" (e.g. "p1"), or "#rrggbb" for true colour. */
export function colour(isDefault: boolean, isPalette: boolean, value: number): string {
  if (isDefault) return "default";
  if (isPalette) return `p${value}`;
  return `#${value.toString(16).padStart(6, "0")}`;
}

/** The attributes as a bit mask (bit i = ATTRIBUTES[i]); numbers, so the hot loop allocates nothing. */
function attributeMask(cell: IBufferCell): number {
  let mask = 0;
  for (let i = 0; i < ATTRIBUTES.length; i++) if (ATTRIBUTES[i]![1](cell)) mask |= 1 << i;
  return mask;
}

/** A new run starting at `cell`, with only the non-default colours and attributes spelled out. */
function newRun(cell: IBufferCell, col: number, mask: number): CellRun {
  const run: CellRun = { col, text: "" };
  if (!cell.isFgDefault()) run.fg = colour(false, cell.isFgPalette(), cell.getFgColor());
  if (!cell.isBgDefault()) run.bg = colour(false, cell.isBgPalette(), cell.getBgColor());
  if (mask !== 0) run.attrs = ATTRIBUTES.filter((_, i) => mask & (1 << i)).map(([name]) => name);
  return run;
}

/** Clamp a requested region to the screen; missing sizes run to the screen's edge. */
export function clampRegion(terminal: Terminal, region: Partial<CellRegion> = {}): CellRegion {
  const row = Math.min(Math.max(0, region.row ?? 0), terminal.rows - 1);
  const col = Math.min(Math.max(0, region.col ?? 0), terminal.cols - 1);
  const rows = Math.min(Math.max(1, region.rows ?? terminal.rows), terminal.rows - row);
  const cols = Math.min(Math.max(1, region.cols ?? terminal.cols), terminal.cols - col);
  return { row, col, rows, cols };
}

/** Runs of equal attributes for each row of `region` (viewport coordinates), within MAX_CELLS. */
export function viewportCellRuns(
  terminal: Terminal,
  requested?: Partial<CellRegion>,
  maxCells = MAX_CELLS,
): CellsResult {
  const asked = clampRegion(terminal, requested);
  const rowsThatFit = Math.max(1, Math.floor(maxCells / asked.cols));
  const region = { ...asked, rows: Math.min(asked.rows, rowsThatFit) };
  const buffer = terminal.buffer.active;
  const scratch = buffer.getNullCell();
  const rows: CellRun[][] = [];
  for (let r = region.row; r < region.row + region.rows; r++) {
    const line = buffer.getLine(buffer.viewportY + r);
    const runs: CellRun[] = [];
    const spans: number[] = [];
    let fgMode = -1;
    let fg = -1;
    let bgMode = -1;
    let bg = -1;
    let attrs = -1;
    for (let c = region.col; c < region.col + region.cols; c++) {
      const cell = line?.getCell(c, scratch);
      if (!cell) break;
      const width = cell.getWidth();
      if (width === 0) continue; // the right half of a wide character, counted in its run's span
      const mask = attributeMask(cell);
      if (
        cell.getFgColorMode() !== fgMode ||
        cell.getFgColor() !== fg ||
        cell.getBgColorMode() !== bgMode ||
        cell.getBgColor() !== bg ||
        mask !== attrs
      ) {
        [fgMode, fg, bgMode, bg, attrs] = [
          cell.getFgColorMode(),
          cell.getFgColor(),
          cell.getBgColorMode(),
          cell.getBgColor(),
          mask,
        ];
        runs.push(newRun(cell, c, mask));
        spans.push(0);
      }
      runs[runs.length - 1]!.text += cell.getChars() || " ";
      spans[spans.length - 1]! += Math.min(width, region.col + region.cols - c);
    }
    const last = runs[runs.length - 1];
    if (last && last.fg === undefined && last.bg === undefined && last.attrs === undefined) {
      const trimmed = last.text.trimEnd();
      spans[spans.length - 1]! -= last.text.length - trimmed.length;
      last.text = trimmed;
      if (trimmed === "") {
        runs.pop();
        spans.pop();
      }
    }
    // Columns a run covers, when its text alone does not say (wide characters).
    runs.forEach((run, i) => {
      if (spans[i] !== run.text.length) run.width = spans[i];
    });
    rows.push(runs);
  }
  return { region, rows, truncated: region.rows < asked.rows };
}
