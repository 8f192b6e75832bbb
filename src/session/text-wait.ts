/**
 * One text wait (waitForText, wait.ts), event-driven: a look at the screen or the raw output on every
 * parsed write (coalesced per tick), so a match is seen within a tick of the bytes arriving;
 * `pollIntervalMs` is only an upper bound (a safety timer), never the latency.
 */
import { cancelled } from "../errors.ts";
// How long a synchronized update (mode 2026) may hide the screen before it is read anyway.
import { DEFAULT_MAX_HOLD_MS } from "../term/emulator.ts";
import { finishFrame } from "./frame-finish.ts";
import type { Found, Matcher } from "./matcher.ts";
import type { Session } from "./session.ts";
import { type Haystack, screenHaystack } from "./wait-haystack.ts";
import { compileAll, type WaitTextOptions, type WaitTextResult, waitPatterns } from "./wait-spec.ts";

/** Raw matching keeps this much of the already-seen output so a match can straddle chunks. */
const RAW_OVERLAP_CHARS = 64 * 1024;

/** How a wait ended, before the rest of its result is filled in. */
type Ending = Pick<WaitTextResult, "matched" | "match" | "timedOut" | "exited">;
/** The first pattern (in list order) found in the haystack, with its index. */
type Hit = { found: Found; index: number };

function firstHit(results: (Found | null)[]): Hit | null {
  const index = results.findIndex((r) => r !== null);
  return index < 0 ? null : { found: results[index]!, index };
}

/**
 * One text wait. It looks at the haystack on each parsed write (looks spaced by their own cost), at a
 * synchronized update's release and on the poll timer; at the timeout or the exit it takes one last
 * look before it gives up. Looks never overlap: an update during a (JS-fallback) look asks for one
 * more after it.
 */
export class TextWait {
  private readonly matchers: Matcher[];
  private readonly patterns: string[];
  private readonly started: number;
  private readonly deadline: number;
  private readonly exitedBefore: boolean;
  private readonly decoder = new TextDecoder();
  /** The screen before the latest input, for after: "input"; null: all text counts. */
  private readonly baseline: Session["lastInput"];
  /** The raw output matched so far (raw matching only). */
  private rawText: string;
  private done = false;
  private readonly cleanups: (() => void)[] = [];
  private resolve: (result: WaitTextResult) => void = () => {};
  private reject: (error: unknown) => void = () => {};
  // What the last look cost: on a big screen that changes without pause, looks are spaced by at
  // least their own cost, so a wait takes at most about half of the event loop.
  private lastCost = 0;
  private lastEnd = 0;
  /** A look is under way (only the JS fallback's looks are asynchronous). */
  private looking = false;
  /** An update came during the look under way: look once more after it. */
  private again = false;
  /** What runs when the next look finds nothing (the timeout's or the exit's ending). */
  private otherwise: (() => void) | undefined;
  /** A look is scheduled for the next turn (or after the last look's cost). */
  private scheduled = false;

  constructor(
    private readonly session: Session,
    private readonly options: WaitTextOptions,
    private readonly signal: AbortSignal | undefined,
  ) {
    this.matchers = compileAll(options);
    this.patterns = waitPatterns(options);
    this.started = performance.now();
    this.deadline = this.started + options.timeoutMs;
    this.exitedBefore = !session.running;
    // Before any input there is nothing to be new against: all text counts.
    this.baseline = options.after === "input" ? session.lastInput : null;
    const rawSince = this.baseline === null ? session.raw.total : session.raw.total - this.baseline.rawTotal;
    this.rawText = options.matchScreen ? "" : this.decoder.decode(session.raw.tail(rawSince), { stream: true });
  }

  run(): Promise<WaitTextResult> {
    return new Promise<WaitTextResult>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      this.start();
    });
  }

  /** Look once now, then on every event that may change the haystack, until the wait ends. */
  private start(): void {
    const { session, options, signal } = this;
    this.check();
    if (this.done) return;
    if (!options.matchScreen) {
      this.cleanups.push(
        session.onOutput((chunk) => {
          this.rawText = this.rawText.slice(-RAW_OVERLAP_CHARS) + this.decoder.decode(chunk, { stream: true });
          this.schedule();
        }),
      );
    }
    this.cleanups.push(session.emulator.onParsed(() => this.schedule()));
    // At the release instant the finished frame is on screen: look now, not a tick later.
    this.cleanups.push(session.emulator.onSyncRelease(() => this.check()));
    const poll = setInterval(() => this.schedule(), options.pollIntervalMs);
    this.cleanups.push(() => clearInterval(poll));
    const timeout = setTimeout(
      () => this.check(() => this.finish({ matched: false, match: null, timedOut: true }, null)),
      options.timeoutMs,
    );
    this.cleanups.push(() => clearTimeout(timeout));
    const onExited = () =>
      void session.emulator
        .flushed()
        .then(() =>
          this.check(() => this.finish({ matched: false, match: null, timedOut: false, exited: true }, null)),
        );
    if (session.state === "exited") onExited();
    else this.cleanups.push(session.onExit(onExited));
    if (signal) {
      const onAbort = () => this.fail(cancelled("The wait"));
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      this.cleanups.push(() => signal.removeEventListener("abort", onAbort));
    }
  }

  /** Look soon: in this turn's microtasks, or once the last look's cost has passed again. */
  private schedule(): void {
    if (this.scheduled || this.done) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      this.check();
    };
    const delay = this.lastEnd + this.lastCost - performance.now();
    if (delay < 1) queueMicrotask(run);
    else setTimeout(run, delay);
  }

  /**
   * Look now, or after the look under way. `then` (the timeout's or the exit's ending) runs when that
   * look finds nothing.
   */
  private check(then?: () => void): void {
    if (this.done) return;
    if (then) this.otherwise = then;
    if (this.looking) {
      this.again = true;
      return;
    }
    const next = this.otherwise;
    this.otherwise = undefined;
    this.again = false;
    let over: boolean | Promise<boolean>;
    try {
      over = this.look();
    } catch (error) {
      return this.fail(error);
    }
    if (over instanceof Promise) {
      this.looking = true;
      over.then(
        (isOver) => this.afterLook(isOver, next),
        (error) => {
          this.looking = false;
          this.fail(error);
        },
      );
    } else this.afterLook(over, next);
  }

  /** A look found nothing: run the ending that waited on it, or look again if an update came meanwhile. */
  private afterLook(over: boolean, next: (() => void) | undefined): void {
    this.looking = false;
    if (over || this.done) return;
    if (next) next();
    else if (this.again || this.otherwise) this.check();
  }

  /** One look at the haystack: true when the wait is over; a promise only for the JS fallback. */
  private look(): boolean | Promise<boolean> {
    const { session, options } = this;
    let found: Hit | null | Promise<Hit | null>;
    const start = performance.now();
    if (options.matchScreen) {
      const holding = session.emulator.syncHeldSince;
      if (holding !== null && start - holding < DEFAULT_MAX_HOLD_MS) return false;
      found = this.findIn(screenHaystack(session, options, this.baseline), {
        screenCols: session.emulator.cols,
        budgetMs: this.deadline - start,
      });
    } else {
      const rawText = this.rawText;
      found = this.findIn({ text: rawText, hidden: () => rawText }, { budgetMs: this.deadline - start });
    }
    this.lastEnd = performance.now();
    this.lastCost = this.lastEnd - start;
    const conclude = (hit: Hit | null): boolean => {
      if (this.done) return true;
      if (hit === null) return false;
      this.finish({ matched: true, match: hit.found.value, timedOut: false }, hit);
      return true;
    };
    return found instanceof Promise ? found.then(conclude) : conclude(found);
  }

  private findIn(
    haystack: Haystack,
    opts: { screenCols?: number; budgetMs: number },
  ): Hit | null | Promise<Hit | null> {
    const results = this.matchers.map((m) =>
      m.engine === "js"
        ? m.find(haystack.hidden(), opts)
        : m.find(haystack.text, { ...opts, ...(haystack.accept ? { accept: haystack.accept } : {}) }),
    );
    return results.some((r) => r instanceof Promise)
      ? Promise.all(results).then(firstHit)
      : firstHit(results as (Found | null)[]);
  }

  private finish(ending: Ending, hit: Hit | null): void {
    if (this.done) return;
    this.end();
    const outcome = this.outcomeOf(ending, hit);
    if (hit === null) {
      this.disposeMatchers();
      // Resolved in a macrotask of its own: waits that end in one parse turn (32 sessions answering
      // at once) then each build and send their reply in turn, instead of all of them advancing one
      // await at a time and every reply going out at the end, after the last one is built.
      setImmediate(() => this.resolve(outcome));
      return;
    }
    void this.afterMatch(outcome, hit).then(this.resolve, this.reject);
  }

  /** The burst the match fell in is let finish; the finished frame is returned if it still shows the match. */
  private async afterMatch(outcome: WaitTextResult, hit: Hit): Promise<WaitTextResult> {
    const { session, options } = this;
    try {
      const frame = await finishFrame(session, this.signal);
      const framed = { ...outcome, frameMs: frame.ms, ...(frame.unfinished ? { frameUnfinished: true } : {}) };
      if (!options.matchScreen) return { ...framed, snapshot: session.emulator.snapshot({ highlights: true }) };
      // a JS-fallback regex that overruns its budget here keeps the matched frame
      const still = await Promise.resolve(
        this.findIn(screenHaystack(session, options, this.baseline), {
          screenCols: session.emulator.cols,
          budgetMs: 100,
        }),
      ).catch(() => null);
      const same = still !== null && still.index === hit.index;
      return same ? { ...framed, snapshot: session.emulator.snapshot({ highlights: true }) } : framed;
    } finally {
      this.disposeMatchers();
    }
  }

  private fail(error: unknown): void {
    if (this.done) return;
    this.end();
    this.disposeMatchers();
    this.reject(error);
  }

  private end(): void {
    this.done = true;
    for (const cleanup of this.cleanups) cleanup();
  }

  private disposeMatchers(): void {
    for (const m of this.matchers) m[Symbol.dispose]();
  }

  private outcomeOf(ending: Ending, hit: Hit | null): WaitTextResult {
    const { session, options, patterns } = this;
    return {
      pattern: patterns[hit?.index ?? 0]!,
      ...(options.anyOf !== undefined ? { anyOf: patterns, ...(hit ? { matchedIndex: hit.index } : {}) } : {}),
      ...ending,
      ...(ending.exited && session.exit ? { exit: session.exit } : {}),
      ...(ending.exited && this.exitedBefore ? { exitedBefore: true } : {}),
      elapsedMs: Math.round(performance.now() - this.started),
      timeoutMs: options.timeoutMs,
      matchedAgainst: options.matchScreen ? "screen" : "raw",
      snapshot: session.emulator.snapshot({ highlights: true }),
    };
  }
}
