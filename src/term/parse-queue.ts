/**
 * An emulator's write queue: chunks waiting for the shared parse scheduler, the byte bound beyond which
 * output is dropped (and counted), and the bookkeeping behind "everything written so far has been parsed".
 */
import { log } from "../util/log.ts";
import { leaveParsing, queueForParsing, type Parseable } from "./parse-scheduler.ts";

/**
 * Bytes queued and not parsed, beyond which a write is dropped (and counted) rather than queued.
 * With bun-terminal the PTY flow control (src/pty/flow.ts) keeps the backlog near 1 MiB, so this only
 * catches a caller that writes without waiting, and bun-pty, which cannot hold its child back
 * (src/pty/bun-pty.ts): 32 MiB lets a finite burst such as `seq 1 2000000` (17 MB) through whole.
 */
export const MAX_PENDING_BYTES = 32 << 20;

interface QueuedChunk {
  data: string | Uint8Array;
  offset: number;
  seq: number;
  done: (() => void) | undefined;
}

export class ParseQueue implements Parseable {
  private readonly parsedListeners = new Set<() => void>();
  private readonly flushWaiters: { seq: number; resolve: () => void }[] = [];
  private written = 0;
  private parsed = 0;
  private disposed = false;
  private queuedBytes = 0;
  private readonly queue: QueuedChunk[] = [];
  /** Bytes never parsed because the parser's backlog was over MAX_PENDING_BYTES, or xterm refused them. */
  droppedBytes = 0;

  /** `parse` is xterm.js's synchronous parse: the scheduler decides when parsing happens, not xterm's timers. */
  constructor(private readonly parse: (data: string | Uint8Array) => void) {}

  /**
   * Queue a chunk (kept, not copied); `done` runs once it is parsed, or at once if it was dropped.
   * False when it was not queued (dropped, or the queue is disposed).
   */
  write(data: string | Uint8Array, done?: () => void): boolean {
    const size = data.length;
    if (this.disposed) {
      done?.();
      return false;
    }
    if (this.queuedBytes + size > MAX_PENDING_BYTES) {
      this.drop(size, "parser backlog over the limit", done);
      return false;
    }
    const seq = ++this.written;
    this.queue.push({ data, offset: 0, seq, done });
    this.queuedBytes += size;
    queueForParsing(this, this.queuedBytes);
    return true;
  }

  /** Parse up to `budget` queued bytes now (the scheduler's turn). True while more is queued. */
  parseSlice(budget: number): boolean {
    while (budget > 0 && this.queue.length > 0 && !this.disposed) {
      const chunk = this.queue[0]!;
      const end = Math.min(chunk.data.length, chunk.offset + budget);
      const piece =
        chunk.offset === 0 && end === chunk.data.length
          ? chunk.data
          : typeof chunk.data === "string"
            ? chunk.data.slice(chunk.offset, end)
            : chunk.data.subarray(chunk.offset, end);
      budget -= end - chunk.offset;
      this.queuedBytes -= end - chunk.offset;
      chunk.offset = end;
      try {
        this.parse(piece);
      } finally {
        if (chunk.offset === chunk.data.length) {
          this.queue.shift();
          this.chunkParsed(chunk.seq);
          chunk.done?.();
        }
      }
    }
    return this.queue.length > 0 && !this.disposed;
  }

  /** Throw away everything queued and not yet parsed, counted in droppedBytes; waiters run as if parsed. */
  discardQueued(): void {
    if (this.queuedBytes === 0) return;
    this.droppedBytes += this.queuedBytes;
    this.queuedBytes = 0;
    leaveParsing(this);
    const chunks = this.queue.splice(0);
    if (chunks.length > 0) this.chunkParsed(chunks[chunks.length - 1]!.seq);
    for (const chunk of chunks) chunk.done?.();
  }

  /** Bytes written and not yet parsed. */
  get pendingBytes(): number {
    return this.queuedBytes;
  }

  /** Resolves once everything written before this call has been parsed (later writes do not delay it). */
  flushed(): Promise<void> {
    if (this.parsed >= this.written || this.disposed) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.flushWaiters.push({ seq: this.written, resolve });
    return promise;
  }

  /** Called after each written chunk has been parsed. Returns the unsubscribe. */
  onParsed(listener: () => void): () => void {
    this.parsedListeners.add(listener);
    return () => this.parsedListeners.delete(listener);
  }

  /** Settle every waiter and write callback, and take no more writes. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const waiter of this.flushWaiters.splice(0)) waiter.resolve();
    leaveParsing(this);
    this.queuedBytes = 0;
    for (const chunk of this.queue.splice(0)) chunk.done?.();
    this.parsedListeners.clear();
  }

  private drop(size: number, why: string, done: (() => void) | undefined): void {
    if (this.droppedBytes === 0) log(`emulator dropped output: ${why}`);
    this.droppedBytes += size;
    done?.();
  }

  private chunkParsed(seq: number): void {
    if (this.disposed) return;
    this.parsed = seq;
    while (this.flushWaiters.length > 0 && this.flushWaiters[0]!.seq <= seq) this.flushWaiters.shift()!.resolve();
    for (const listener of [...this.parsedListeners]) {
      try {
        listener();
      } catch (e) {
        log("onParsed listener failed:", String(e));
      }
    }
  }
}
