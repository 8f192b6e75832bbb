/**
 * Snapshots read straight from the xterm.js buffer: text rows, cursor, per-cell attributes,
 * an ANSI rendering (via @xterm/addon-serialize) and, on request, the whole scrollback.
 */
import type { IBuffer, IBufferCell, Terminal } from "@xterm/headless";
import type { SerializeAddon } from "@xterm/addon-serialize";
import { colour, viewportCellRuns } from "./cells.ts";
import type { CellInfo, CursorState, Highlight, ScrollbackInfo, Snapshot, SnapshotOptions } from "./types.ts";

export const DEFAULT_MAX_SCROLLBACK_LINES = 10_000;

/** The SerializeAddon prefix of the alternate screen's part (see viewportAnsi). */
const ALT_SCREEN_MARKER = "\x1b[?1049h\x1b[H";

/**
 * Rows `start..end-1` of a buffer with trailing blanks trimmed. translateToString(true) only drops
 * never-written cells, so spaces the app printed (or erased to) are trimmed here as well.
 */
function bufferLines(buffer: IBuffer, start: number, end: number): string[] {
  const lines: string[] = [];
  for (let y = start; y < end; y++) lines.push((buffer.getLine(y)?.translateToString(true) ?? "").replace(/ +$/, ""));
  return lines;
}

export function viewportLines(terminal: Terminal): string[] {
  const buffer = terminal.buffer.active;
  return bufferLines(buffer, buffer.viewportY, buffer.viewportY + terminal.rows);
}

/**
 * Cursor in viewport coordinates. xterm.js leaves cursorX at `cols` after a write into the last
 * column (the pending-wrap state); it is reported on the last column, where a terminal shows it.
 */
export function cursorState(terminal: Terminal, visible: boolean): CursorState {
  const buffer = terminal.buffer.active;
  const row = buffer.baseY + buffer.cursorY - buffer.viewportY;
  return {
    row: Math.min(Math.max(row, 0), terminal.rows - 1),
    col: Math.min(buffer.cursorX, terminal.cols - 1),
    visible,
  };
}

function cellInfo(cell: IBufferCell): CellInfo {
  const width = cell.getWidth();
  const chars = cell.getChars();
  return {
    // An unwritten cell has no characters; it shows as a space. The right half of a wide
    // character has width 0 and char "" (kept, so cells[row][col] lines up with columns).
    char: chars === "" && width > 0 ? " " : chars,
    width,
    fg: colour(cell.isFgDefault(), cell.isFgPalette(), cell.getFgColor()),
    bg: colour(cell.isBgDefault(), cell.isBgPalette(), cell.getBgColor()),
    bold: cell.isBold() !== 0,
    italic: cell.isItalic() !== 0,
    underline: cell.isUnderline() !== 0,
    inverse: cell.isInverse() !== 0,
    dim: cell.isDim() !== 0,
    strikethrough: cell.isStrikethrough() !== 0,
    blink: cell.isBlink() !== 0,
    invisible: cell.isInvisible() !== 0,
    overline: cell.isOverline() !== 0,
  };
}

/**
 * Every visible cell as an object, `cols` per row, width-0 continuation cells included. Large: for
 * code that needs per-cell data (a renderer); tools return the compact runs of cells.ts instead.
 */
export function viewportCells(terminal: Terminal): CellInfo[][] {
  const buffer = terminal.buffer.active;
  const scratch = buffer.getNullCell();
  const rows: CellInfo[][] = [];
  for (let r = 0; r < terminal.rows; r++) {
    const line = buffer.getLine(buffer.viewportY + r);
    const row: CellInfo[] = [];
    for (let c = 0; c < terminal.cols; c++) {
      const cell = line?.getCell(c, scratch);
      row.push(cell ? cellInfo(cell) : cellInfo(buffer.getNullCell()));
    }
    rows.push(row);
  }
  return rows;
}

/**
 * The visible screen as ANSI: SGR runs and cursor moves that, written into a terminal of the same
 * size, redraw it and leave the cursor in place. SerializeAddon always serializes the normal buffer
 * and appends the alternate one after `CSI ? 1049 h CSI H`; on the alternate screen only that part
 * is the viewport, so it is cut out (cell text cannot contain ESC, so the marker is unambiguous).
 */
export function viewportAnsi(terminal: Terminal, serializer: SerializeAddon): string {
  if (terminal.buffer.active.type !== "alternate")
    return serializer.serialize({ scrollback: 0, excludeModes: true, excludeAltBuffer: true });
  const all = serializer.serialize({ scrollback: 0, excludeModes: true });
  const at = all.indexOf(ALT_SCREEN_MARKER);
  return at < 0 ? all : all.slice(at + ALT_SCREEN_MARKER.length);
}

/** Lines of a whole buffer, keeping the newest `maxLines` when there are more. */
function bufferTail(
  buffer: IBuffer,
  maxLines: number,
): { totalLines: number; lines: string[]; truncated: boolean; start: number } {
  const totalLines = buffer.length;
  const start = Math.max(0, totalLines - maxLines);
  return { totalLines, lines: bufferLines(buffer, start, totalLines), truncated: start > 0, start };
}

export function scrollbackInfo(terminal: Terminal, maxLines: number): ScrollbackInfo {
  const active = terminal.buffer.active;
  const isAltScreen = active.type === "alternate";
  const tail = bufferTail(active, maxLines);
  const info: ScrollbackInfo = {
    totalLines: tail.totalLines,
    // Indexes into the whole buffer (0..totalLines-1), also when `lines` holds only the tail.
    viewportStartLine: active.viewportY,
    viewportEndLine: Math.min(active.viewportY + terminal.rows, tail.totalLines) - 1,
    lines: tail.lines,
    text: tail.lines.join("\n"),
    isAltScreen,
    truncated: tail.truncated,
    maxLines,
  };
  if (isAltScreen) {
    const normal = bufferTail(terminal.buffer.normal, maxLines);
    info.normalBuffer = {
      totalLines: normal.totalLines,
      lines: normal.lines,
      text: normal.lines.join("\n"),
      truncated: normal.truncated,
    };
  }
  return info;
}

/** Where a snapshot takes its rows and highlights from (screen-reads.ts keeps them while the screen holds still). */
export interface ViewportReader {
  viewportLines(): string[];
  viewportHighlights(): Highlight[];
}

export function buildSnapshot(
  terminal: Terminal,
  serializer: SerializeAddon,
  cursorVisible: boolean,
  opts: SnapshotOptions,
  reader: ViewportReader,
): Snapshot {
  const format = opts.format ?? "text";
  const lines = reader.viewportLines();
  const snapshot: Snapshot = {
    cols: terminal.cols,
    rows: terminal.rows,
    cursor: cursorState(terminal, cursorVisible),
    text: lines.join("\n"),
    lines,
  };
  if (opts.highlights) snapshot.highlights = reader.viewportHighlights();
  if (format === "ansi" || format === "all") snapshot.ansi = viewportAnsi(terminal, serializer);
  if (format === "cells" || format === "all") snapshot.cells = viewportCellRuns(terminal, opts.region);
  if (opts.grid) snapshot.grid = viewportCells(terminal);
  if (opts.includeScrollback) {
    const max = Math.max(0, Math.floor(opts.maxScrollbackLines ?? DEFAULT_MAX_SCROLLBACK_LINES));
    snapshot.scrollback = scrollbackInfo(terminal, max);
  }
  return snapshot;
}
