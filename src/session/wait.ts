/**
 * Event-driven waits. A check runs on every parsed write of the emulator (coalesced per tick),
 * so a match is seen within a tick of the bytes arriving; `pollIntervalMs` is only an upper bound
 * (a safety timer), never the latency.
 */
import { cancelled } from "../errors.ts";
// How long a synchronized update (mode 2026) may hide the screen before it is read anyway.
import { DEFAULT_MAX_HOLD_MS } from "../term/emulator.ts";
import { finishFrame } from "./frame-finish.ts";
import type { Found } from "./matcher.ts";
import type { Session } from "./session.ts";
import { type Haystack, screenHaystack } from "./wait-haystack.ts";
import { compileAll, type WaitTextOptions, type WaitTextResult, waitPatterns } from "./wait-spec.ts";

export {
  compileAll,
  exitPhrase,
  MAX_ANY_OF,
  type WaitTextOptions,
  type WaitTextResult,
  waitPatterns,
} from "./wait-spec.ts";

/** Raw matching keeps this much of the already-seen output so a match can straddle chunks. */
const RAW_OVERLAP_CHARS = 64 * 1024;
export async function waitForText(
  session: Session,
  options: WaitTextOptions,
  signal?: AbortSignal,
): Promise<WaitTextResult> {
  const matchers = compileAll(options);
  const patterns = waitPatterns(options);
  const many = options.anyOf !== undefined;
  const started = performance.now();
  const exitedBefore = !session.running;
  const decoder = new TextDecoder();
  // Before any input there is nothing to be new against: all text counts.
  const baseline = options.after === "input" ? session.lastInput : null;
  const rawSince = baseline === null ? session.raw.total : session.raw.total - baseline.rawTotal;
  let rawText = options.matchScreen ? "" : decoder.decode(session.raw.tail(rawSince), { stream: true });

  /** The first pattern (in list order) found in the haystack, with its index. */
  type Hit = { found: Found; index: number };
  const pick = (results: (Found | null)[]): Hit | null => {
    const index = results.findIndex((r) => r !== null);
    return index < 0 ? null : { found: results[index]!, index };
  };
  const findIn = (
    haystack: Haystack,
    opts: { screenCols?: number; budgetMs: number },
  ): Hit | null | Promise<Hit | null> => {
    const results = matchers.map((m) =>
      m.engine === "js"
        ? m.find(haystack.hidden(), opts)
        : m.find(haystack.text, { ...opts, ...(haystack.accept ? { accept: haystack.accept } : {}) }),
    );
    return results.some((r) => r instanceof Promise)
      ? Promise.all(results).then(pick)
      : pick(results as (Found | null)[]);
  };

  return new Promise<WaitTextResult>((resolve, reject) => {
    const cleanups: (() => void)[] = [];
    let done = false;
    const deadline = started + options.timeoutMs;

    const end = () => {
      done = true;
      for (const cleanup of cleanups) cleanup();
    };
    const outcomeOf = (
      result: Pick<WaitTextResult, "matched" | "match" | "timedOut" | "exited">,
      hit: Hit | null,
    ): WaitTextResult => ({
      pattern: patterns[hit?.index ?? 0]!,
      ...(many ? { anyOf: patterns, ...(hit ? { matchedIndex: hit.index } : {}) } : {}),
      ...result,
      ...(result.exited && session.exit ? { exit: session.exit } : {}),
      ...(result.exited && exitedBefore ? { exitedBefore: true } : {}),
      elapsedMs: Math.round(performance.now() - started),
      timeoutMs: options.timeoutMs,
      matchedAgainst: options.matchScreen ? "screen" : "raw",
      snapshot: session.emulator.snapshot({ highlights: true }),
    });
    const finish = (result: Pick<WaitTextResult, "matched" | "match" | "timedOut" | "exited">, hit: Hit | null) => {
      if (done) return;
      end();
      const outcome = outcomeOf(result, hit);
      if (hit === null) {
        for (const m of matchers) m[Symbol.dispose]();
        // Resolved in a macrotask of its own: waits that end in one parse turn (32 sessions answering
        // at once) then each build and send their reply in turn, instead of all of them advancing one
        // await at a time and every reply going out at the end, after the last one is built.
        setImmediate(() => resolve(outcome));
        return;
      }
      void afterMatch(outcome, hit).then(resolve, reject);
    };
    /** The burst the match fell in is let finish; the finished frame is returned if it still shows the match. */
    const afterMatch = async (outcome: WaitTextResult, hit: Hit): Promise<WaitTextResult> => {
      try {
        const frame = await finishFrame(session, signal);
        const framed = { ...outcome, frameMs: frame.ms, ...(frame.unfinished ? { frameUnfinished: true } : {}) };
        if (!options.matchScreen) return { ...framed, snapshot: session.emulator.snapshot({ highlights: true }) };
        // a JS-fallback regex that overruns its budget here keeps the matched frame
        const still = await Promise.resolve(
          findIn(screenHaystack(session, options, baseline), { screenCols: session.emulator.cols, budgetMs: 100 }),
        ).catch(() => null);
        const same = still !== null && still.index === hit.index;
        return same ? { ...framed, snapshot: session.emulator.snapshot({ highlights: true }) } : framed;
      } finally {
        for (const m of matchers) m[Symbol.dispose]();
      }
    };
    const fail = (error: unknown) => {
      if (done) return;
      end();
      for (const m of matchers) m[Symbol.dispose]();
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
        found = findIn(screenHaystack(session, options, baseline), {
          screenCols: session.emulator.cols,
          budgetMs: deadline - start,
        });
      } else {
        found = findIn({ text: rawText, hidden: () => rawText }, { budgetMs: deadline - start });
      }
      lastEnd = performance.now();
      lastCost = lastEnd - start;
      const conclude = (hit: Hit | null): boolean => {
        if (done) return true;
        if (hit === null) return false;
        finish({ matched: true, match: hit.found.value, timedOut: false }, hit);
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
      () => check(() => finish({ matched: false, match: null, timedOut: true }, null)),
      options.timeoutMs,
    );
    cleanups.push(() => clearTimeout(timeout));
    const onExited = () =>
      void session.emulator
        .flushed()
        .then(() => check(() => finish({ matched: false, match: null, timedOut: false, exited: true }, null)));
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
