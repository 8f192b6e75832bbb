/** Shapes the emulator layer hands to the rest of the program. Plain JSON-able data only. */

export interface CursorState {
  row: number;
  col: number;
  visible: boolean;
}

export interface CellInfo {
  char: string;
  width: number;
  /** "default", a palette index as "p<n>" (e.g. "p1"), or "#rrggbb" for true colour. */
  fg: string;
  bg: string;
  bold: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
  dim: boolean;
  strikethrough: boolean;
  blink: boolean;
  invisible: boolean;
  overline: boolean;
}

/** A stretch of one row with the same colours and attributes; defaults are left out. */
export interface CellRun {
  /** First column (0-based, viewport). */
  col: number;
  text: string;
  /** Columns covered, only when it differs from text.length (wide characters). */
  width?: number;
  /** "p<n>" palette index or "#rrggbb"; absent = the terminal's default. */
  fg?: string;
  bg?: string;
  /** bold, dim, italic, underline, blink, inverse, invisible, strikethrough, overline; absent = none. */
  attrs?: string[];
}

/** A rectangle of the visible screen, 0-based. */
export interface CellRegion {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

/** `cells` of a snapshot: the region read and its rows of runs (trailing default blanks dropped). */
export interface CellsResult {
  region: CellRegion;
  rows: CellRun[][];
  /** The region asked for was larger than one call reads; ask again from region.row + region.rows. */
  truncated: boolean;
}

export interface ScrollbackInfo {
  totalLines: number;
  viewportStartLine: number;
  viewportEndLine: number;
  lines: string[];
  text: string;
  isAltScreen: boolean;
  /** Only when isAltScreen: the hidden normal buffer (shell history the TUI pushed aside). */
  normalBuffer?: { totalLines: number; lines: string[]; text: string; truncated: boolean };
  truncated: boolean;
  maxLines: number;
}

/** A stretch of one row drawn with emphasis (a selected item, a focused button). endCol is exclusive. */
export interface Highlight {
  row: number;
  startCol: number;
  endCol: number;
  text: string;
  kind: "inverse" | "background" | "bold";
}

export type SnapshotFormat = "text" | "ansi" | "cells" | "all";

export interface Snapshot {
  cols: number;
  rows: number;
  cursor: CursorState;
  /** Visible rows joined with "\n", trailing spaces trimmed per row. */
  text: string;
  lines: string[];
  /** Emphasised runs (see term/highlights.ts), when asked for. */
  highlights?: Highlight[];
  ansi?: string;
  cells?: CellsResult;
  /** Every visible cell, row by row (only with SnapshotOptions.grid). */
  grid?: CellInfo[][];
  scrollback?: ScrollbackInfo;
}

export interface SnapshotOptions {
  format?: SnapshotFormat;
  /** Part of the screen `cells` covers (default all of it). */
  region?: Partial<CellRegion>;
  /** Add `highlights`: what a text view cannot show (selection drawn in inverse, colour, bold). */
  highlights?: boolean;
  /** Add `grid`: every visible cell as an object (for renderers inside the server; too big for a reply). */
  grid?: boolean;
  includeScrollback?: boolean;
  maxScrollbackLines?: number;
}

export interface ChangedLine {
  row: number;
  before: string;
  after: string;
}

export interface SnapshotDiff {
  identical: boolean;
  cursorMoved: boolean;
  resized: boolean;
  changedLines: ChangedLine[];
  /** Rows present only in `after` (after has more rows). */
  addedRows: { row: number; text: string }[];
  /** Rows present only in `before`. */
  removedRows: { row: number; text: string }[];
}

export type MouseTracking = "none" | "x10" | "vt200" | "drag" | "any";
export type MouseEncoding = "default" | "utf8" | "sgr" | "sgr-pixels" | "urxvt";

/** Terminal modes the app has switched on, for reporting and for input encoding. */
export interface TerminalModes {
  applicationCursorKeys: boolean;
  applicationKeypad: boolean;
  bracketedPaste: boolean;
  mouseTracking: MouseTracking;
  mouseEncoding: MouseEncoding;
  kittyKeyboardFlags: number;
  altScreen: boolean;
  synchronizedOutput: boolean;
  cursorVisible: boolean;
  focusEvents: boolean;
}

/** Colours the emulator reports when the app asks (OSC 10/11/12/4). "#rrggbb". */
export interface TerminalTheme {
  foreground: string;
  background: string;
  cursor: string;
  /** 16 ANSI colours; indexes 16..255 follow the xterm 256-colour cube and grey ramp. */
  ansi: string[];
}
