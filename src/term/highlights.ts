/**
 * Where the screen draws emphasis a text view loses: the selected menu item, the focused button,
 * the highlighted row. Apps draw selection with inverse video (less, vim, many ncurses menus), a
 * background colour (htop, mc, dialog's menus) or bold.
 *
 * A background counts as emphasis where it is a bar one row high (see standsOut): mc's cursor line
 * on its blue panel, dialog's item on its white box, but not the panel or box itself. Bold counts only while it is
 * rare (an app that bolds every number, as
 * htop does, is not selecting them). A run is a stretch of one row with the same emphasis; blank
 * runs are left out and the list is bounded, inverse first, then background, then bold.
 */
import type { IBuffer, IBufferCell, Terminal } from "@xterm/headless";
import type { Highlight } from "./types.ts";

export const MAX_HIGHLIGHTS = 40;
/** Screens larger than this (cells) get no highlights: reading every cell would take too long. */
export const MAX_HIGHLIGHT_CELLS = 40_000;

type Kind = Highlight["kind"];
const PRIORITY: Record<Kind, number> = { inverse: 0, background: 1, bold: 2 };
/** More bold runs than this on one screen and bold is the app's style, not a selection. */
const MAX_BOLD_RUNS = 8;

/**
 * The background of every visible cell, row by row, as one number: the colour mode (xterm.js's
 * CM_* bits, 2^24 and up) plus the colour (below 2^24). Numbers, not "mode:colour" strings: this
 * runs on every screen a reply shows, and the strings were a tenth of the server's CPU when 32
 * sessions answered at once (bench/README.md, the 32-session regression).
 */
function backgrounds(buffer: IBuffer, top: number, rows: number, cols: number, scratch: IBufferCell): number[][] {
  const out: number[][] = [];
  for (let r = 0; r < rows; r++) {
    const line = buffer.getLine(top + r);
    const row: number[] = [];
    for (let c = 0; c < cols; c++) {
      const cell = line?.getCell(c, scratch);
      row.push(cell ? cell.getBgColorMode() + cell.getBgColor() : 0);
    }
    out.push(row);
  }
  return out;
}

/**
 * Each cell's run of one background along its row, as one number (start * 2^16 + end), to tell a
 * block from a tab on a bar.
 */
function runExtents(bgs: number[][]): number[][] {
  return bgs.map((row) => {
    const out: number[] = new Array(row.length);
    for (let start = 0; start < row.length; ) {
      let end = start;
      while (end + 1 < row.length && row[end + 1] === row[start]) end++;
      out.fill(start * 65_536 + end, start, end + 1);
      start = end + 1;
    }
    return out;
  });
}

/**
 * A background one row high that is either set in one surrounding colour (dialog's item on its
 * white box, even in the screen's own blue) or not the screen's most common background (htop's
 * cursor bar right under its header bar). htop's active tab "[Main]" sits on the header bar below
 * it, in the bar's colour: a run of another extent on a block's edge is still a tab.
 */
function standsOut(bgs: number[][], runs: number[][], r: number, c: number, screenBg: number): boolean {
  const bg = bgs[r]![c]!;
  const same = (r2: number) => bgs[r2]?.[c] === bg;
  // Inside a block (its colour above and below) nothing stands out; on a block's edge, a run of another
  // extent in a colour not the screen's is a tab on the bar next to it.
  const tab = (r2: number) => bg !== screenBg && runs[r2]![c] !== runs[r]![c];
  const up = bgs[r - 1]?.[c];
  const down = bgs[r + 1]?.[c];
  if ((same(r - 1) && same(r + 1)) || (same(r - 1) && !tab(r - 1)) || (same(r + 1) && !tab(r + 1))) return false;
  if (up === undefined && down === undefined) return false;
  return up === undefined || down === undefined || up === down || bg !== screenBg;
}

/**
 * The cells of row r on a background bar: those that stand out, widened along the row over cells
 * of the same colour, unless that is the screen's own (htop's cursor bar crosses the header's sort
 * column, which has its colour).
 */
function barCells(bgs: number[][], runs: number[][], r: number, screenBg: number): boolean[] {
  const row = bgs[r]!;
  const bar = row.map((_, c) => standsOut(bgs, runs, r, c, screenBg));
  const widen = (c: number, from: number) => !bar[c] && bar[from] && row[c] === row[from] && row[c] !== screenBg;
  for (let c = 1; c < row.length; c++) if (widen(c, c - 1)) bar[c] = true;
  for (let c = row.length - 2; c >= 0; c--) if (widen(c, c + 1)) bar[c] = true;
  return bar;
}

/** The background most cells have (the screen's own: default for a shell, blue for mc) and how many have it. */
function mostCommon(bgs: number[][]): { bg: number; cells: number } {
  const counts = new Map<number, number>();
  for (const row of bgs) for (const bg of row) counts.set(bg, (counts.get(bg) ?? 0) + 1);
  let best = 0;
  let most = -1;
  for (const [bg, n] of counts) {
    if (n > most) [best, most] = [bg, n];
  }
  return { bg: best, cells: most };
}

/**
 * xterm.js's cell words (BufferLine._data: content, fg, bg per cell) and their flags, from its
 * src/common/buffer/Constants.ts: FgFlags.INVERSE and BOLD, Attributes.CM_MASK | RGB_MASK.
 */
const CELL_WORDS = 3;
const INVERSE_OR_BOLD = 0x4000000 | 0x8000000;
const COLOUR_BITS = 0x3ffffff;

/**
 * True when no visible cell is inverse or bold and all share one background: nothing to report. Read
 * from xterm.js's cell words, about 50 times faster than cell objects: most screens a shell or REPL
 * shows are plain, and this runs on each of them. Undefined when the words cannot be read
 * (another xterm.js build): the caller then looks cell by cell.
 */
export function plainScreen(buffer: IBuffer, top: number, rows: number, cols: number): boolean | undefined {
  let screenBg: number | undefined;
  for (let r = 0; r < rows; r++) {
    const line = (buffer.getLine(top + r) as { _line?: { _data?: unknown; length?: number } } | undefined)?._line;
    const data = line?._data;
    if (!(data instanceof Uint32Array) || line!.length !== cols || data.length < cols * CELL_WORDS) return undefined;
    for (let at = 0; at < cols * CELL_WORDS; at += CELL_WORDS) {
      if ((data[at + 1]! & INVERSE_OR_BOLD) !== 0) return false;
      const bg = data[at + 2]! & COLOUR_BITS;
      if (screenBg === undefined) screenBg = bg;
      else if (bg !== screenBg) return false;
    }
  }
  return true;
}

/** The emphasised runs of the visible screen, at most MAX_HIGHLIGHTS, in row order. */
export function viewportHighlights(terminal: Terminal): Highlight[] {
  const { cols, rows } = terminal;
  if (cols * rows > MAX_HIGHLIGHT_CELLS) return [];
  const buffer = terminal.buffer.active;
  const top = buffer.viewportY;
  if (plainScreen(buffer, top, rows, cols) === true) return [];
  const scratch = buffer.getNullCell();
  const bgs = backgrounds(buffer, top, rows, cols, scratch);
  const { bg: screenBg, cells: plain } = mostCommon(bgs);
  // One background everywhere (a shell, most REPLs): no bar can stand out, so skip looking for one.
  const noBars = plain === rows * cols ? new Array<boolean>(cols).fill(false) : undefined;
  const runs = noBars ? [] : runExtents(bgs);
  let found: Highlight[] = [];
  for (let r = 0; r < rows; r++) {
    const line = buffer.getLine(top + r);
    if (!line) continue;
    let run: { kind: Kind; key: number | string; startCol: number; text: string } | undefined;
    const close = (endCol: number) => {
      if (run && !/^[\s\u2500-\u257f]*$/.test(run.text))
        found.push({ row: r, startCol: run.startCol, endCol, text: run.text, kind: run.kind });
      run = undefined;
    };
    const bar = noBars ?? barCells(bgs, runs, r, screenBg);
    for (let c = 0; c < cols; c++) {
      const cell = line.getCell(c, scratch);
      if (!cell) break;
      if (cell.getWidth() === 0) continue; // right half of a wide character: belongs to the left half's run
      const kind: Kind | null = cell.isInverse() ? "inverse" : bar[c] ? "background" : cell.isBold() ? "bold" : null;
      const key = kind === "background" ? bgs[r]![c]! : (kind ?? "");
      if (run && (kind === null || run.kind !== kind || run.key !== key)) close(c);
      if (kind === null) continue;
      run ??= { kind, key, startCol: c, text: "" };
      run.text += cell.getChars() || " ";
    }
    close(cols);
  }
  if (found.filter((h) => h.kind === "bold").length > MAX_BOLD_RUNS) found = found.filter((h) => h.kind !== "bold");
  if (found.length <= MAX_HIGHLIGHTS) return found;
  return found
    .map((h, i) => ({ h, i }))
    .sort((a, b) => PRIORITY[a.h.kind] - PRIORITY[b.h.kind] || a.i - b.i)
    .slice(0, MAX_HIGHLIGHTS)
    .sort((a, b) => a.i - b.i)
    .map(({ h }) => h);
}
