/**
 * Where typed text was echoed: cells of the buffer, found by position (session/echo.ts decides what
 * was typed). A typed line's echo starts where the cursor stood when it was written and runs on, cell
 * by cell and across wrapped rows, for as many cells as the text has characters. A cell counts as
 * echo only while it still shows the character typed there, so output that later overwrites those
 * cells (after a `clear`, say) is output again.
 *
 * Anchors are xterm.js markers: they follow their line while the main screen scrolls and the
 * scrollback trims, and die with it.
 */
import type { IMarker, Terminal } from "@xterm/headless";

export type ScreenName = "main" | "alternate";

/** A place in the buffer that survives scrolling: a marked line and a column. */
export interface EchoAnchor {
  marker: IMarker;
  col: number;
  screen: ScreenName;
}

/** One line of typed text and where its echo begins (null: not located yet). */
export interface EchoSegment {
  text: string;
  anchor: EchoAnchor | null;
  /** For a line typed after an Enter: the column its input's first line began at (the prompt's width). */
  promptCol?: number;
}

/** Per viewport row, the string offsets (in viewportLines' row text) of echo characters. */
export type EchoMask = Map<number, number[]>;

/** Most characters of one segment looked at: an echo longer than a screen cannot all be visible. */
const MAX_SEGMENT_CELLS = 64 * 1024;

const screenOf = (terminal: Terminal): ScreenName =>
  terminal.buffer.active.type === "alternate" ? "alternate" : "main";

/** An anchor at the cursor as it stands now. */
export function anchorAtCursor(terminal: Terminal): EchoAnchor | null {
  const marker = terminal.registerMarker(0);
  if (!marker) return null;
  const buffer = terminal.buffer.active;
  return { marker, col: Math.min(buffer.cursorX, terminal.cols), screen: screenOf(terminal) };
}

/** An anchor at an absolute buffer line of the active screen. */
function anchorAt(terminal: Terminal, line: number, col: number): EchoAnchor | null {
  const buffer = terminal.buffer.active;
  const marker = terminal.registerMarker(line - (buffer.baseY + buffer.cursorY));
  return marker ? { marker, col, screen: screenOf(terminal) } : null;
}

interface Cell {
  line: number;
  col: number;
}

/**
 * The cells `text` occupies from (line, col), a character per cell (two for a wide one), wrapping at
 * the row's end; `visit` gets each cell and whether it shows the expected character.
 */
function walk(terminal: Terminal, start: Cell, text: string, visit: (cell: Cell, same: boolean) => void): Cell {
  const buffer = terminal.buffer.active;
  const cols = terminal.cols;
  let { line, col } = start;
  let seen = 0;
  for (const char of text) {
    if (++seen > MAX_SEGMENT_CELLS) break;
    if (col >= cols) {
      line++;
      col = 0;
    }
    const row = buffer.getLine(line);
    if (!row) break;
    let cell = row.getCell(col);
    // A wide character that does not fit in the last column goes to the next row.
    if (cell && cell.getChars() !== char && col === cols - 1 && isWide(char)) {
      line++;
      col = 0;
      cell = buffer.getLine(line)?.getCell(0);
    }
    const width = cell?.getWidth() || 1;
    visit({ line, col }, cell?.getChars() === char);
    col += width;
  }
  return { line, col };
}

function isWide(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (
    code >= 0x1100 &&
    /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{1f300}-\u{1faff}\u{20000}-\u{3fffd}]/u.test(
      char,
    )
  );
}

/** The row's text offset of a column, as translateToString counts (a wide character is one offset). */
function offsetOf(terminal: Terminal, line: number, col: number): number {
  const row = terminal.buffer.active.getLine(line);
  if (!row) return col;
  let offset = 0;
  for (let c = 0; c < col; ) {
    const cell = row.getCell(c);
    offset += cell?.getChars().length || 1;
    c += cell?.getWidth() || 1;
  }
  return offset;
}

/**
 * The echo cells of `segments` (oldest first) in the visible rows. A segment without an anchor is the
 * echo of a line typed after an Enter, drawn wherever the program put its next prompt: it is located
 * once, as the first place after the previous segment's echo where its text appears, and pinned there.
 */
export function echoMask(terminal: Terminal, segments: EchoSegment[]): EchoMask {
  const mask: EchoMask = new Map();
  const buffer = terminal.buffer.active;
  const screen = screenOf(terminal);
  const top = buffer.viewportY;
  let previousEnd: Cell | null = null;
  const transient: EchoAnchor[] = [];
  for (const segment of segments) {
    let anchor = segment.anchor;
    if (anchor === null && previousEnd !== null) {
      // Pinned only where a prompt of the same width would put it; elsewhere looked for again next time,
      // so output that repeats the line before its echo is drawn is not taken for the echo for good.
      const found = findAfter(terminal, previousEnd, segment.text, segment.promptCol);
      if (found) anchor = anchorAt(terminal, found.line, found.col);
      if (found?.col === segment.promptCol) segment.anchor = anchor;
      else if (anchor) transient.push(anchor);
    }
    if (anchor === null || anchor.marker.isDisposed || anchor.marker.line < 0 || anchor.screen !== screen) {
      previousEnd = null;
      continue;
    }
    const cols = terminal.cols;
    const roughEnd = anchor.col + segment.text.length;
    if (anchor.marker.line + Math.ceil((roughEnd + segment.text.length) / cols) < top) {
      // wholly above the screen even if every character were wide: not walked cell by cell
      previousEnd = { line: anchor.marker.line + Math.floor(roughEnd / cols), col: roughEnd % cols };
      continue;
    }
    previousEnd = walk(terminal, { line: anchor.marker.line, col: anchor.col }, segment.text, (cell, same) => {
      const row = cell.line - top;
      if (!same || row < 0 || row >= terminal.rows) return;
      const offsets = mask.get(row) ?? [];
      offsets.push(offsetOf(terminal, cell.line, cell.col));
      mask.set(row, offsets);
    });
  }
  for (const t of transient) t.marker.dispose();
  return mask;
}

/** Rows searched for a later line's echo, after the previous one's. */
const MAX_SEARCH_ROWS = 500;

/**
 * Where `text` stands in the buffer at or after `from` (wrapped rows read as one): the first place at
 * column `preferCol`, else the first place at all.
 */
function findAfter(terminal: Terminal, from: Cell, text: string, preferCol?: number): Cell | null {
  if (text.trim() === "") return null;
  const buffer = terminal.buffer.active;
  const cols = terminal.cols;
  const last = Math.min(buffer.length - 1, from.line + MAX_SEARCH_ROWS);
  let first: Cell | null = null;
  for (let line = from.line; line <= last; line++) {
    // a logical line: this row and the rows wrapped from it
    let joined = buffer.getLine(line)?.translateToString(false) ?? "";
    let end = line;
    while (end < last && buffer.getLine(end + 1)?.isWrapped) joined += buffer.getLine(++end)!.translateToString(false);
    for (let at = joined.indexOf(text, line === from.line ? from.col : 0); at >= 0; at = joined.indexOf(text, at + 1)) {
      const cell = { line: line + Math.floor(at / cols), col: at % cols };
      if (cell.col === preferCol) return cell;
      first ??= cell;
    }
    line = end;
  }
  return first;
}

/** `lines` with each masked offset replaced by `hidden`. */
export function applyMask(lines: readonly string[], mask: EchoMask, hidden: string): string[] {
  if (mask.size === 0) return lines as string[];
  return lines.map((line, row) => {
    const offsets = mask.get(row);
    if (!offsets) return line;
    const chars = line.split("");
    for (const offset of offsets) if (offset < chars.length && chars[offset] !== " ") chars[offset] = hidden;
    return chars.join("");
  });
}
