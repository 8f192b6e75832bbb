/**
 * The first-input gate: an input sent while the program is still starting up (not yet waiting for
 * its terminal, or not yet through the replies to its start-up queries) is held until it is, at
 * most FIRST_INPUT_HOLD_MS. Programs that query the terminal at start (DA, DSR, OSC 10/11, kitty
 * flags, as crossterm does) read and throw away whatever input arrives while they wait for the
 * replies: a key sent right after their first screen was lost.
 *
 * The program is through its queries when, for every reply the emulator sent, the group's read
 * counters (rchar) grew by at least the reply's bytes since just before it was written, and it is
 * waiting for input again with nothing of its output still on the way to the emulator (whose parse
 * is what answers a query).
 */
import type { Session } from "../session.ts";
import type { ForegroundLooker } from "./foreground.ts";
import { FenceDrain } from "../output-fence.ts";
import { writesOf, type Look } from "./reading.ts";
import { allWaiting } from "./rest-model.ts";
import { certainRest, startupOutputIn } from "./startup.ts";

/** The longest an input is held for a program that has not got through its start-up. */
export const FIRST_INPUT_HOLD_MS = 1000;
/**
 * Waiting for input with its output not all received yet (its write counter also counts files it
 * wrote, such as python's .pyc files): a fence raised behind its output says when it is (output-fence.ts).
 * Where none can be raised, after its write counter has stood still this long, it is taken as received.
 */
const OUTPUT_GRACE_MS = 50;
/**
 * Waiting for input on a short timer (a start-up delay before the queries, or an event loop's tick)
 * passes once it has lasted this long with no output: a wait with no timer, or a long one, passes at once.
 */
const SHORT_TIMER_MS = 100;

export interface Held {
  heldMs: number;
  /** The hold ran out: the program was still not through its start-up. */
  timedOut: boolean;
}

export class FirstInputGate {
  /** Once the program has been through its start-up, the gate stays open. */
  private open = false;
  /** Reply bytes not yet seen read, and the group's rchar per process just before the first of them. */
  private unread: { bytes: number; rchar: Map<number, number> } | undefined;
  /** Replies sent so far. */
  private replies = 0;
  /** The group's total write counter at the last look, and since when it has stood still. */
  private writes: { total: number; since: number } | undefined;
  private readonly fenced: FenceDrain;

  constructor(
    private readonly session: Session,
    private readonly group: ForegroundLooker,
  ) {
    session.onReply((bytes) => this.replying(bytes));
    this.fenced = new FenceDrain(session.fence);
  }

  /** Never held again (an input was sent, or the program was seen through its start-up). */
  get passed(): boolean {
    return this.open;
  }

  private replying(bytes: number): void {
    this.replies++;
    if (this.open || !this.group.available) return;
    if (this.unread !== undefined) {
      this.unread.bytes += bytes;
      return;
    }
    const seen = this.group.guarded(() => this.group.lookNow());
    if (seen === undefined) return;
    this.unread = { bytes, rchar: new Map([...seen.io].map(([pid, io]) => [pid, io.rchar])) };
  }

  /** The replies sent so far have been read (see the top of this file). */
  private repliesRead(seen: Look): boolean {
    const unread = this.unread;
    if (unread === undefined) return true;
    let read = 0;
    let common = 0;
    for (const [pid, io] of seen.io) {
      const before = unread.rchar.get(pid);
      if (before === undefined) continue;
      common++;
      read += io.rchar - before;
    }
    // The process that asked is gone (it exec'd into another group, or exited): nothing left to read.
    if (common === 0) return true;
    if (read < unread.bytes) return false;
    this.unread = undefined;
    return true;
  }

  /** Is the program waiting for its terminal, through its start-up queries? */
  private waitingForTerminal(seen: Look): boolean {
    if (!allWaiting(seen)) return false;
    if (!seen.threads.some((t) => t.activity.kind === "wait" && t.activity.waitKind === "input")) return false;
    if (!this.repliesRead(seen)) return false;
    let written = 0;
    for (const io of seen.io.values()) written += io.wchar;
    const now = performance.now();
    if (this.writes?.total !== written) this.writes = { total: written, since: now };
    if (startupOutputIn(this.session, seen, this.fenced)) return true;
    return now - this.writes.since >= OUTPUT_GRACE_MS && !this.fenced.coming(writesOf(seen));
  }

  /** What arrived by the look is parsed too: a query in it is answered (and must be read) first. */
  private async noNewReplies(before: number): Promise<boolean> {
    await this.session.emulator.flushed();
    return this.replies === before;
  }

  /**
   * Before the first input: wait until the program is through its start-up, at most
   * FIRST_INPUT_HOLD_MS. Undefined when it was not held (already through, or the gate is open).
   */
  async hold(signal?: AbortSignal): Promise<Held | undefined> {
    if (this.open || !this.group.available || !this.session.running) return undefined;
    const start = performance.now();
    let waitingSince: { at: number; bytes: number } | undefined;
    const through = (seen: Look): boolean => {
      if (!this.waitingForTerminal(seen)) {
        waitingSince = undefined;
        return false;
      }
      if (certainRest(seen, this.session.pid)) return true;
      if (waitingSince === undefined || waitingSince.bytes !== this.session.bytesOut)
        waitingSince = { at: performance.now(), bytes: this.session.bytesOut };
      return performance.now() - waitingSince.at >= SHORT_TIMER_MS;
    };
    try {
      for (let looks = 0; ; looks++) {
        if (signal?.aborted || !this.session.running) return undefined;
        // Queries still in unparsed output have not been answered yet: parse first.
        await this.session.emulator.flushed();
        const seen = this.group.guarded(() => this.group.lookNow());
        if (seen === undefined) return undefined;
        const replies = this.replies;
        const elapsed = performance.now() - start;
        if (through(seen) && (await this.noNewReplies(replies)))
          return looks === 0 ? undefined : { heldMs: Math.round(elapsed), timedOut: false };
        if (elapsed >= FIRST_INPUT_HOLD_MS) return { heldMs: Math.round(elapsed), timedOut: true };
        await Bun.sleep(Math.min(looks < 20 ? 1 : 5, FIRST_INPUT_HOLD_MS - elapsed));
      }
    } finally {
      this.open = true;
    }
  }
}
