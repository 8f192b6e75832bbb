/**
 * Output flow control between a PTY reader and the parser that consumes its chunks, as a real
 * terminal has it: the reader stops reading while more than HIGH_WATER bytes are read but not yet
 * parsed, so the kernel's tty buffer fills and the child blocks in write(2) until the parser catches
 * up. The count lives in a SharedArrayBuffer so a reader Worker can block on it with Atomics.wait.
 */

/** Read-but-unparsed bytes above which the reader pauses (a few hundred ms of parsing, far below xterm's 50 MB discard). */
export const HIGH_WATER = 1 << 20;

const PENDING = 0;
const CLOSED = 1;

/** One session's backlog counter; the same SharedArrayBuffer is handed to the reader's thread. */
export class FlowGate {
  readonly cells: Int32Array;

  constructor(shared: SharedArrayBuffer = new SharedArrayBuffer(8)) {
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

  /** Reader side: count bytes handed to the consumer; true when the reader should now pause. */
  add(bytes: number): boolean {
    return Atomics.add(this.cells, PENDING, bytes) + bytes > HIGH_WATER;
  }

  /** Consumer side: bytes parsed. Wakes a blocked reader once the backlog is back under the mark. */
  release(bytes: number): void {
    const now = Atomics.sub(this.cells, PENDING, bytes) - bytes;
    if (now <= HIGH_WATER) Atomics.notify(this.cells, PENDING);
  }

  /** Never block again (the session is going away). */
  close(): void {
    Atomics.store(this.cells, CLOSED, 1);
    Atomics.notify(this.cells, PENDING);
  }

  /** Reader thread only (a Worker: Atomics.wait is not allowed on the main thread): block while over. */
  waitUnder(): void {
    for (let now = this.pending; now > HIGH_WATER && !this.closed; now = this.pending) Atomics.wait(this.cells, PENDING, now, 1000);
  }
}
