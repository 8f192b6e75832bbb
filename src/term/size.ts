/**
 * The largest terminal anything here accepts: a session, a resize, a replayed recording, a viewer's resize.
 * One bound for all of them, so a recording made at any size a session allows also replays, and the emulator's
 * memory (cols x rows, times scrollback) stays bounded.
 */
export const MAX_COLS = 1000;
export const MAX_ROWS = 500;
