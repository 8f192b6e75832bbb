/** How many lines of history an emulator keeps: the lines asked for, within a byte budget. */

export const DEFAULT_SCROLLBACK = 10_000;

/**
 * History is bounded in bytes as well as lines: xterm.js keeps 12 bytes for every cell of every line
 * (BufferLine: 3 × Uint32 per cell), so 10,000 lines at 1000 columns would hold 120 MB per session.
 * The configured scrollback applies up to this budget; a terminal wider than 279 columns keeps fewer lines.
 */
export const MAX_HISTORY_BYTES = 32 << 20;
const BYTES_PER_CELL = 12;

/** The scrollback an emulator `cols` wide keeps when `requested` lines were asked for. */
export function scrollbackFor(requested: number, cols: number): number {
  return Math.min(requested, Math.floor(MAX_HISTORY_BYTES / (Math.max(1, cols) * BYTES_PER_CELL)));
}
