/**
 * Output flow control between a PTY reader and the parser that consumes its chunks, as a real
 * terminal has it: while more than HIGH_WATER bytes are read but not yet parsed, the child is held
 * back until the parser catches up. The count lives in a SharedArrayBuffer shared with the reader's
 * thread, which holds the child back in one of two ways:
 * - at the tty (tty-flow.ts, Linux): output is stopped with TCOOFF and restarted with TCOON once the
 *   backlog is down to LOW_WATER; the reader never blocks, so one reader thread serves every session;
 * - by blocking (elsewhere): the reader waits in Atomics.wait, stops reading, the kernel's tty buffer
 *   fills and the child blocks in write(2); one reader thread per session.
 */

/**
 * Read-but-unparsed bytes above which the child is held back (a few hundred ms of parsing, far below xterm's 50 MB
 * discard).
 */
export const HIGH_WATER = 1 << 20;
/** A child held back at the tty is let go once the backlog is down to this. */
export const LOW_WATER = HIGH_WATER / 2;

const PENDING = 0;
const CLOSED = 1;
/** 1 while the reader has stopped the child's output at the tty. */
const PAUSED = 2;

/** One session's backlog counter; the same SharedArrayBuffer is handed to the reader's thread. */
export class FlowGate {
  readonly cells: Int32Array;

  constructor(shared: SharedArrayBuffer = new SharedArrayBuffer(12)) {
    this.cells = new Int32Array(shared);
  }

  get shared(): SharedArrayBuffer {
    return this.cells.buffer as SharedArrayBuffer;
  }

  /** Bytes handed to the consumer and not yet reported consumed. */
  get pending(): number {
    return Atomics.load(this.cells, PENDING);
  }

  get over(): boolean {
    return this.pending > HIGH_WATER && !this.closed;
  }

  get closed(): boolean {
    return Atomics.load(this.cells, CLOSED) === 1;
  }

  get paused(): boolean {
    return Atomics.load(this.cells, PAUSED) === 1;
  }

  /** Reader side: count bytes handed to the consumer; true when the child should now be held back. */
  add(bytes: number): boolean {
    return Atomics.add(this.cells, PENDING, bytes) + bytes > HIGH_WATER;
  }

  /** Reader side, tty mode: record that the child's output is stopped (or running again). */
  setPaused(paused: boolean): void {
    Atomics.store(this.cells, PAUSED, paused ? 1 : 0);
  }

  /**
   * Consumer side: bytes parsed. Wakes a blocked reader once the backlog is back under the mark.
   * Returns true when a child stopped at the tty should now be let go: the backlog just fell to
   * LOW_WATER while the reader has it paused. (If the reader pauses just after this check, it sees
   * the low backlog itself when it re-checks after pausing, so a resume is never lost.)
   */
  release(bytes: number): boolean {
    const now = Atomics.sub(this.cells, PENDING, bytes) - bytes;
    if (now <= HIGH_WATER) Atomics.notify(this.cells, PENDING);
    return now <= LOW_WATER && now + bytes > LOW_WATER && this.paused;
  }

  /** Never hold back again (the session is going away). */
  close(): void {
    Atomics.store(this.cells, CLOSED, 1);
    Atomics.notify(this.cells, PENDING);
  }

  /** Blocking reader thread only (a Worker: Atomics.wait is not allowed on the main thread): block while over. */
  waitUnder(): void {
    for (let now = this.pending; now > HIGH_WATER && !this.closed; now = this.pending)
      Atomics.wait(this.cells, PENDING, now, 1000);
  }
}
