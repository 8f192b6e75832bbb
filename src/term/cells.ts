/**
 * The compact `cells` form: per row, runs of cells with equal attributes, not an object per cell.
 * Default colours and absent attributes are left out, and a row's trailing blank default cells are
 * dropped, so a typical screen costs little more than its text. The work is bounded: at most
 * MAX_CELLS cells per call; a larger region is cut after the last whole row that fits and says so.
 */
import type { IBufferCell, Terminal } from "@xterm/headless";
import type { CellRegion, CellRun, CellsResult } from "./types.ts";

/** Cells read per call (about 300x330); a 1000x500 screen is read in region-sized parts. */
export const MAX_CELLS = 100_000;

/** Attribute names in the order they are listed in a run's `attrs`. */
const ATTRIBUTES: [name: string, on: (cell: IBufferCell) => boolean][] = [
  ["bold", (c) => c.isBold() !== 0],
  ["dim", (c) => c.isDim() !== 0],
  ["italic", (c) => c.isItalic() !== 0],
  ["underline", (c) => c.isUnderline() !== 0],
  ["blink", (c) => c.isBlink() !== 0],
  ["inverse", (c) => c.isInverse() !== 0],
  ["invisible", (c) => c.isInvisible() !== 0],
  ["strikethrough", (c) => c.isStrikethrough() !== 0],
  ["overline", (c) => c.isOverline() !== 0],
];

/** "default", a palette index as "p<n>" (e.g. "p1"), or "#rrggbb" for true colour. */
export function colour(isDefault: boolean, isPalette: boolean, value: number): string {
  if (isDefault) return "default";
  if (isPalette) return `p${value}`;
  return `#${value.toString(16).padStart(6, "0")}`;
}

function style(cell: IBufferCell): { key: string; fg: string; bg: string; attrs: string[] } {
  const fg = colour(cell.isFgDefault(), cell.isFgPalette(), cell.getFgColor());
  const bg = colour(cell.isBgDefault(), cell.isBgPalette(), cell.getBgColor());
  const attrs = ATTRIBUTES.filter(([, on]) => on(cell)).map(([name]) => name);
  return { key: `${fg}|${bg}|${attrs.join(",")}`, fg, bg, attrs };
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
export function viewportCellRuns(terminal: Terminal, requested?: Partial<CellRegion>, maxCells = MAX_CELLS): CellsResult {
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
    let key = "";
    for (let c = region.col; c < region.col + region.cols; c++) {
      const cell = line?.getCell(c, scratch);
      if (!cell) break;
      const width = cell.getWidth();
      if (width === 0) continue; // the right half of a wide character, counted in its run's span
      const s = style(cell);
      if (runs.length === 0 || s.key !== key) {
        key = s.key;
        const run: CellRun = { col: c, text: "" };
        if (s.fg !== "default") run.fg = s.fg;
        if (s.bg !== "default") run.bg = s.bg;
        if (s.attrs.length > 0) run.attrs = s.attrs;
        runs.push(run);
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
