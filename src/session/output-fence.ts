/**
 * Fences in the program's output: a few bytes the server writes to the PTY's slave (slave-write.ts),
 * which the tty layer queues behind every byte the program had written by then. When a fence comes
 * out of the master, all the program wrote before it has been received. That answers "has its output
 * reached us?" where the byte counters cannot: a process's wchar also counts its writes to files and
 * pipes, and a shell's counter takes in each reaped child's.
 *
 * A fence is cut out of the stream before anything else sees it (screen, recordings, byte counts).
 * It is `CSI $ <digits> ~`: an intermediate then a parameter byte, which the VT parser's csi_ignore
 * state swallows (vt100.net/emu/dec_ansi_parser), so should one ever get past the cut (a fence torn
 * by a full queue) it draws nothing. No byte of it is changed by the tty's output processing.
 */
import type { SlaveWriter } from "../pty/slave-write.ts";

/**
 * A fence not back this long is taken as lost (the program flushed its output, the tty hung up): waits
 * stop counting on it, and the cut no longer holds back a chunk's end for it.
 */
export const FENCE_LOST_MS = 1000;
const SEQ_DIGITS = 8;
/** Fences out at once that are remembered; more means many looks' fences are lost, and older ones are forgotten. */
const MAX_OUT = 32;
const ESC = 0x1b;

export class OutputFence {
  /** `ESC [ $` and a per-session nonce: the part of a fence that never changes. */
  private readonly head: Uint8Array;
  private raised = 0;
  private passedSeq = 0;
  /** When each fence still out was raised (at most MAX_OUT: older ones are taken as lost). */
  private readonly out = new Map<number, number>();
  /** The start of a fence held back from the end of a chunk, until the next chunk says whether it is one. */
  private held: Uint8Array | undefined;
  private broken = false;

  constructor(private readonly slave: SlaveWriter) {
    const nonce = String(100000 + Math.floor(Math.random() * 900000));
    this.head = new TextEncoder().encode(`\x1b[$${nonce}`);
  }

  /**
   * Raise a fence behind everything written to the terminal so far. Returns its number, or undefined
   * when none could be raised (no slave here, output stopped, the queue full).
   */
  raise(): number | undefined {
    if (this.broken) return undefined;
    const seq = this.raised + 1;
    const bytes = this.fenceBytes(seq);
    const sent = this.slave.write(bytes);
    if (sent === undefined || sent === 0) return undefined;
    if (sent < bytes.length) {
      // Torn by a full queue: what went out is an ignored CSI on screen; no more fences for this session,
      // as the rest written later would show as digits.
      this.broken = true;
      return undefined;
    }
    this.raised = seq;
    this.out.set(seq, performance.now());
    if (this.out.size > MAX_OUT) this.out.delete(this.out.keys().next().value!);
    return seq;
  }

  /** Fence `seq` has come back: everything written before it was raised has been received. */
  passed(seq: number): boolean {
    return this.passedSeq >= seq;
  }

  /** Fence `seq` is still on its way: not back, and not yet taken as lost. */
  coming(seq: number): boolean {
    const raisedAt = this.out.get(seq);
    return raisedAt !== undefined && performance.now() - raisedAt < FENCE_LOST_MS;
  }

  /**
   * The program's own bytes of an output chunk, fences cut out. While a fence is coming, a chunk
   * ending in what may be a fence's start keeps that start back for the next chunk (a lost fence's
   * start, should it come after all, goes to the screen, where it is an ignored CSI). `cut` counts the bytes
   * removed (fences); bytes held back come out with a later chunk.
   */
  cut(chunk: Uint8Array): { bytes: Uint8Array; cut: number } {
    if (this.passedSeq >= this.raised && this.held === undefined) return { bytes: chunk, cut: 0 };
    const coming = this.coming(this.raised);
    let data = chunk;
    if (this.held !== undefined) {
      data = new Uint8Array(this.held.length + chunk.length);
      data.set(this.held);
      data.set(chunk, this.held.length);
      this.held = undefined;
    }
    const kept: Uint8Array[] = [];
    let cut = 0;
    let from = 0;
    for (;;) {
      const at = indexOf(data, this.head, from);
      if (at < 0) break;
      const end = this.fenceEnd(data, at);
      if (end === undefined) break; // a fence's start at the end: held below
      if (end < 0) {
        kept.push(data.subarray(from, at + 1)); // not a fence after all
        from = at + 1;
        continue;
      }
      kept.push(data.subarray(from, at));
      this.pass(Number(new TextDecoder().decode(data.subarray(end - 1 - SEQ_DIGITS, end - 1))));
      cut += end - at;
      from = end;
    }
    const holdFrom = coming ? this.partialStart(data, from) : data.length;
    kept.push(data.subarray(from, holdFrom));
    if (holdFrom < data.length) this.held = data.slice(holdFrom);
    return { bytes: kept.length === 1 ? kept[0]! : concat(kept), cut };
  }

  private pass(seq: number): void {
    this.passedSeq = Math.max(this.passedSeq, seq);
    for (const out of this.out.keys()) if (out <= this.passedSeq) this.out.delete(out);
  }

  /** Cut the fences out of `chunk`: the program's bytes go to `deliver`, the count of those cut to `consumed`. */
  filter(chunk: Uint8Array, deliver: (own: Uint8Array) => void, consumed: (cut: number) => void): void {
    const { bytes, cut } = this.cut(chunk);
    if (cut > 0) consumed(cut);
    if (bytes.length > 0) deliver(bytes);
  }

  /** Bytes held back as a possible fence's start; at the end of output they are the program's. */
  release(): Uint8Array | undefined {
    const held = this.held;
    this.held = undefined;
    return held;
  }

  private fenceBytes(seq: number): Uint8Array {
    const tail = new TextEncoder().encode(`${String(seq).padStart(SEQ_DIGITS, "0")}~`);
    return concat([this.head, tail]);
  }

  /** Where the fence starting at `at` ends; -1 when it is not one; undefined when the chunk ends first. */
  private fenceEnd(data: Uint8Array, at: number): number | undefined {
    const end = at + this.head.length + SEQ_DIGITS + 1;
    for (let i = at + this.head.length; i < end; i++) {
      if (i >= data.length) return undefined;
      const byte = data[i]!;
      if (i === end - 1 ? byte !== 0x7e : byte < 0x30 || byte > 0x39) return -1;
    }
    return end;
  }

  /** Where a fence may begin in the last bytes of `data` (from `from` on), or data.length. */
  private partialStart(data: Uint8Array, from: number): number {
    const longest = this.head.length + SEQ_DIGITS;
    for (let at = Math.max(from, data.length - longest); at < data.length; at++) {
      if (data[at] !== ESC) continue;
      const n = Math.min(data.length - at, this.head.length);
      let prefix = true;
      for (let i = 0; i < n && prefix; i++) prefix = data[at + i] === this.head[i];
      if (prefix && this.fenceEnd(data, at) === undefined) return at;
    }
    return data.length;
  }
}

function indexOf(data: Uint8Array, needle: Uint8Array, from: number): number {
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength).indexOf(needle, from);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Has everything a program wrote up to a look reached us? Yes once a fence raised just after a look at
 * it (at rest, or waiting for input) has come back and its processes have written nothing since that
 * look: `writes` names them and their byte counters (reading.ts writesOf). A write after the look is
 * behind the fence, so a new look with other counters raises a new fence.
 */
export class FenceDrain {
  private pending: { seq: number | undefined; writes: string } | undefined;

  constructor(private readonly fence: OutputFence) {}

  drained(writes: string): boolean {
    if (this.pending?.writes === writes && this.pending.seq !== undefined) return this.fence.passed(this.pending.seq);
    // none raised for this look yet, or none could be (output stopped for a moment): raise one now
    this.pending = { seq: this.fence.raise(), writes };
    return false;
  }

  /**
   * A fence raised for these writes is on its way: a wait must not give up on the output for quiet
   * alone (under load the reader lags past any fixed grace), until the fence is taken as lost.
   */
  coming(writes: string): boolean {
    return this.pending?.writes === writes && this.pending.seq !== undefined && this.fence.coming(this.pending.seq);
  }
}
