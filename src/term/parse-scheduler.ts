/** The parse scheduler every emulator shares, and the collection after a long history is dropped. */
import { log } from "../util/log.ts";

/** What the scheduler drives: parse up to `budget` queued bytes now; true while more is queued. */
export interface Parseable {
  parseSlice(budget: number): boolean;
}

/**
 * One parser turn for all sessions. xterm.js's own write queue parses each terminal for 12 ms per
 * setTimeout hop (and a setTimeout(0) hop costs about 1.6 ms in Bun): with a few sessions flooding,
 * a quiet session's echo waited behind every flood's slice. Instead every emulator queues its
 * chunks here, and each turn (a setImmediate, so I/O such as MCP requests runs between turns)
 * parses up to SLICE_BYTES per busy emulator in rotation, for at most TURN_MS.
 */
const SLICE_BYTES = 32 * 1024;
const TURN_MS = 6;
/**
 * With several sessions pouring output, the gap after a turn, as a multiple of the turn. 1 (half the
 * thread) held 4 floods off a quiet session while each session had a reader thread that blocked; with
 * the one shared reader (tty flow control) floods are refilled faster and took the CPU from it. In an
 * interleaved run (bench/README.md, the 32-session regression) 2 gave echo p50 / p99 with 4 floods of 10 / 210 ms
 * (median of 3 runs, load 13), against 28 / 301 ms with per-session readers, and 47-73 ms p50 with 1.
 */
const GAP_FACTOR = 2;
const busy = new Set<Parseable>();
/** Busy emulators whose last slice left more queued: the sessions pouring output. */
const pouring = new Set<Parseable>();
let turnScheduled = false;

/** True while turns are spaced out because several sessions are busy. */
let throttled = false;
/** Quiet sessions' output that arrived while throttled, parsed in the next setImmediate. */
const express = new Set<Parseable>();
let expressScheduled = false;

/**
 * While parsing is under way, turns follow each other with setImmediate. A turn that starts parsing
 * from idle waits one timer tick instead (as xterm.js's own queue did), so the pieces of one burst of
 * output (an echo, then its prompt, in separate reads) are parsed together: a wait that matches the
 * first piece then sees the screen the program drew, not half of it.
 */
function scheduleTurn(fromIdle: boolean): void {
  if (turnScheduled) return;
  turnScheduled = true;
  if (fromIdle) setTimeout(parseTurn, 0);
  else setImmediate(parseTurn);
}

function parseTurn(): void {
  turnScheduled = false;
  const started = performance.now();
  const deadline = started + TURN_MS;
  while (busy.size > 0 && performance.now() < deadline) {
    const emulator = busy.values().next().value!;
    busy.delete(emulator);
    parseGuarded(emulator);
  }
  // Spaced turns are for sessions pouring output (more queued after a whole slice), not for many
  // sessions each answering a keystroke at once: 32 echoes were parsed in spaced groups, a gap
  // after every 6 ms of them, and each echo waited for the gaps. The pourers are counted over the
  // whole rotation, not this turn alone: on a loaded machine one slice can outlast the turn, and
  // floods counted one per turn never looked like several.
  throttled = pouring.size > 1;
  if (throttled) {
    // Several sessions pouring output: the next turn waits GAP_FACTOR times as long as this one took,
    // so parsing takes about a third of this thread and the rest stays free for requests, quiet
    // sessions (queueForParsing) and the collector. One busy session (a single big output) parses flat out.
    turnScheduled = true;
    setTimeout(parseTurn, (performance.now() - started) * GAP_FACTOR);
  } else if (busy.size > 0) scheduleTurn(false);
}

/** One slice; an emulator with more queued goes to the back of the rotation (and true is returned). */
function parseGuarded(emulator: Parseable): boolean {
  try {
    if (!emulator.parseSlice(SLICE_BYTES)) {
      pouring.delete(emulator);
      return false;
    }
    busy.add(emulator);
    pouring.add(emulator);
    return true;
  } catch (error) {
    pouring.delete(emulator);
    log("emulator parse failed:", String(error));
    return false;
  }
}

/**
 * Queue an emulator that has bytes to parse (`queuedBytes` in all); a turn follows. While floods are
 * being parsed, a short queue (an echo, a redraw) is parsed at once instead of waiting for the gap
 * and for its place behind the floods' slices. With 4 `yes` floods, an echo round trip (bench:
 * pressure) went from p50 22–23 / p99 32–42 ms to p50 9 / p99 23–25 ms with the spaced turns and
 * this express lane together.
 */
export function queueForParsing(emulator: Parseable, queuedBytes: number): void {
  busy.add(emulator);
  if (!throttled || queuedBytes > SLICE_BYTES) return scheduleTurn(true);
  express.add(emulator);
  if (expressScheduled) return;
  expressScheduled = true;
  setImmediate(expressTurn);
}

function expressTurn(): void {
  expressScheduled = false;
  for (const emulator of express) {
    express.delete(emulator);
    if (busy.delete(emulator)) parseGuarded(emulator); // else a turn parsed it already
  }
  if (busy.size > 0) scheduleTurn(false); // a spaced turn is normally pending already; never strand a queue
}

/** Whether turns are being spaced out now (for tests and diagnostics). */
export function parsingThrottled(): boolean {
  return throttled;
}

/** Drop an emulator from the rotation (its queue was discarded or it was disposed). */
export function leaveParsing(emulator: Parseable): void {
  busy.delete(emulator);
  pouring.delete(emulator);
  express.delete(emulator);
}

/**
 * A disposed emulator with a long history leaves an abandoned graph of up to ~16 MiB (10,000 lines of
 * xterm BufferLines), which JSC's heuristics leave in place until the heap has doubled: with a few
 * floods stopped and others started the server's RSS climbed past 450 MiB (bench: pressure). One full
 * collection shortly after such disposals (coalesced; ~50 ms with eight full histories live) returns it.
 */
const COLLECT_DELAY_MS = 100;
let collectTimer: ReturnType<typeof setTimeout> | undefined;
export function collectSoon(): void {
  if (collectTimer !== undefined) return;
  collectTimer = setTimeout(() => {
    collectTimer = undefined;
    Bun.gc(true);
  }, COLLECT_DELAY_MS);
  collectTimer.unref();
}
