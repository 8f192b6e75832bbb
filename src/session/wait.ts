/**
 * Event-driven waits. A check runs on every parsed write of the emulator (coalesced per tick),
 * so a match is seen within a tick of the bytes arriving; `pollIntervalMs` is only an upper bound
 * (a safety timer), never the latency.
 */
import { cancelled } from "../errors.ts";
// How long a synchronized update (mode 2026) may hide the screen before it is read anyway.
import { DEFAULT_MAX_HOLD_MS } from "../term/emulator.ts";
import type { Snapshot } from "../term/types.ts";
import { newTextOnly } from "./baseline.ts";
import { compileMatcher, type Found, type MatchValue, type PatternSpec } from "./matcher.ts";
import type { Session } from "./session.ts";

/** Raw matching keeps this much of the already-seen output so a match can straddle chunks. */
const RAW_OVERLAP_CHARS = 64 * 1024;

export interface WaitTextOptions extends PatternSpec {
  timeoutMs: number;
  pollIntervalMs: number;
  matchScreen: boolean;
  /** "input": match only text that was not on the screen (or in the output) before the latest input. */
  after?: "input";
}

export interface WaitTextResult {
  pattern: string;
  matched: boolean;
  match: MatchValue | null;
  elapsedMs: number;
  timedOut: boolean;
  timeoutMs: number;
  matchedAgainst: "screen" | "raw";
  /** True when the process exited before the pattern appeared (the wait ends early). */
  exited?: boolean;
  /** The screen at the instant of the match (or of the timeout / exit). */
  snapshot: Snapshot;
}

export async function waitForText(
  session: Session,
  options: WaitTextOptions,
  signal?: AbortSignal,
): Promise<WaitTextResult> {
  const matcher = compileMatcher(options);
  const started = performance.now();
  const decoder = new TextDecoder();
  // Before any input there is nothing to be new against: all text counts.
  const baseline = options.after === "input" ? session.lastInput : null;
  const rawSince = baseline === null ? session.raw.total : session.raw.total - baseline.rawTotal;
  let rawText = options.matchScreen ? "" : decoder.decode(session.raw.tail(rawSince), { stream: true });

  return new Promise<WaitTextResult>((resolve, reject) => {
    const cleanups: (() => void)[] = [() => matcher[Symbol.dispose]()];
    let done = false;
    const deadline = started + options.timeoutMs;

    const end = () => {
      done = true;
      for (const cleanup of cleanups) cleanup();
    };
    const finish = (
      result: Omit<WaitTextResult, "elapsedMs" | "timeoutMs" | "pattern" | "matchedAgainst" | "snapshot">,
    ) => {
      if (done) return;
      end();
      const outcome: WaitTextResult = {
        pattern: options.pattern,
        ...result,
        elapsedMs: Math.round(performance.now() - started),
        timeoutMs: options.timeoutMs,
        matchedAgainst: options.matchScreen ? "screen" : "raw",
        snapshot: session.emulator.snapshot({ highlights: true }),
      };
      // Resolved in a macrotask of its own: waits that end in one parse turn (32 sessions answering
      // at once) then each build and send their reply in turn, instead of all of them advancing one
      // await at a time and every reply going out at the end, after the last one is built (issue 22).
      setImmediate(() => resolve(outcome));
    };
    const fail = (error: unknown) => {
      if (done) return;
      end();
      reject(error);
    };

    // What the last look cost: on a big screen that changes without pause, looks are spaced by at
    // least their own cost, so a wait takes at most about half of the event loop.
    let lastCost = 0;
    let lastEnd = 0;
    /** One look at the haystack: true when the wait is over; a promise only for the JS fallback. */
    const look = (): boolean | Promise<boolean> => {
      let found;
      const start = performance.now();
      if (options.matchScreen) {
        const holding = session.emulator.syncHeldSince;
        if (holding !== null && start - holding < DEFAULT_MAX_HOLD_MS) return false;
        const text =
          baseline === null ? session.emulator.text() : newTextOnly(baseline, session.emulator.viewport()).join("\n");
        found = matcher.find(text, { screenCols: session.emulator.cols, budgetMs: deadline - start });
      } else {
        found = matcher.find(rawText, { budgetMs: deadline - start });
      }
      lastEnd = performance.now();
      lastCost = lastEnd - start;
      const conclude = (f: Found | null): boolean => {
        if (done) return true;
        if (f === null) return false;
        finish({ matched: true, match: f.value, timedOut: false });
        return true;
      };
      return found instanceof Promise ? found.then(conclude) : conclude(found);
    };
    /** Checks never overlap: an update during a (JS-fallback) check asks for one more check after it. */
    let checking = false;
    let again = false;
    let otherwise: (() => void) | undefined;
    const check = (then?: () => void): void => {
      if (done) return;
      if (then) otherwise = then;
      if (checking) {
        again = true;
        return;
      }
      const next = otherwise;
      otherwise = undefined;
      again = false;
      const settle = (over: boolean) => {
        checking = false;
        if (over || done) return;
        if (next) next();
        else if (again || otherwise) check();
      };
      let over: boolean | Promise<boolean>;
      try {
        over = look();
      } catch (error) {
        return fail(error);
      }
      if (over instanceof Promise) {
        checking = true;
        over.then(settle, (error) => {
          checking = false;
          fail(error);
        });
      } else settle(over);
    };
    let scheduled = false;
    const schedule = () => {
      if (scheduled || done) return;
      scheduled = true;
      const run = () => {
        scheduled = false;
        check();
      };
      const delay = lastEnd + lastCost - performance.now();
      if (delay < 1) queueMicrotask(run);
      else setTimeout(run, delay);
    };

    check();
    if (done) return;
    if (!options.matchScreen) {
      cleanups.push(
        session.onOutput((chunk) => {
          rawText = rawText.slice(-RAW_OVERLAP_CHARS) + decoder.decode(chunk, { stream: true });
          schedule();
        }),
      );
    }
    cleanups.push(session.emulator.onParsed(schedule));
    // At the release instant the finished frame is on screen: look now, not a tick later.
    cleanups.push(session.emulator.onSyncRelease(() => check()));
    const poll = setInterval(schedule, options.pollIntervalMs);
    cleanups.push(() => clearInterval(poll));
    const timeout = setTimeout(
      () => check(() => finish({ matched: false, match: null, timedOut: true })),
      options.timeoutMs,
    );
    cleanups.push(() => clearTimeout(timeout));
    const onExited = () =>
      void session.emulator
        .flushed()
        .then(() => check(() => finish({ matched: false, match: null, timedOut: false, exited: true })));
    if (session.state === "exited") onExited();
    else cleanups.push(session.onExit(onExited));
    if (signal) {
      const onAbort = () => fail(cancelled("The wait"));
      if (signal.aborted) onAbort();
      signal.addEventListener("abort", onAbort, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", onAbort));
    }
  });
}

export { quietPeriod } from "./quiet-window.ts";
export { waitForIdle, type IdleMode, type WaitIdleResult } from "./wait-idle.ts";

/** Resolves on the screen's next parsed write, synchronized-update release or exit, or after timeoutMs. */
export function nextScreenChange(session: Session, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const cleanups: (() => void)[] = [];
    const finish = () => {
      for (const cleanup of cleanups) cleanup();
      done();
    };
    cleanups.push(session.emulator.onParsed(finish), session.emulator.onSyncRelease(finish), session.onExit(finish));
    const timer = setTimeout(finish, timeoutMs);
    cleanups.push(() => clearTimeout(timer));
    if (signal) {
      signal.addEventListener("abort", finish, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", finish));
    }
  });
}
