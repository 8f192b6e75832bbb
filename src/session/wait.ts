/**
 * Event-driven waits. A check runs on every parsed write of the emulator (coalesced per tick),
 * so a match is seen within a tick of the bytes arriving; `pollIntervalMs` is only an upper bound
 * (a safety timer), never the latency.
 */
import { cancelled, TuiError } from "../errors.ts";
// How long a synchronized update (mode 2026) may hide the screen before it is read anyway.
import { DEFAULT_MAX_HOLD_MS } from "../term/emulator.ts";
import { applyMask } from "../term/echo-cells.ts";
import type { Snapshot } from "../term/types.ts";
import { HIDDEN_CHAR, newTextOnly } from "./baseline.ts";
import { describeExit, type ExitInfo } from "./exit-info.ts";
import { finishFrame } from "./frame-finish.ts";
import { compileMatcher, type Found, type Matcher, type MatchValue, type PatternSpec } from "./matcher.ts";
import type { Session } from "./session.ts";

/** Raw matching keeps this much of the already-seen output so a match can straddle chunks. */
const RAW_OVERLAP_CHARS = 64 * 1024;
/** Most patterns one anyOf wait watches. */
export const MAX_ANY_OF = 32;

export interface WaitTextOptions extends Omit<PatternSpec, "pattern"> {
  /** The text (or regex) to wait for; or anyOf. */
  pattern?: string;
  /** Several patterns: the wait ends on the first that appears (pattern is then unused). */
  anyOf?: string[];
  timeoutMs: number;
  pollIntervalMs: number;
  matchScreen: boolean;
  /** "input": match only text that was not on the screen (or in the output) before the latest input. */
  after?: "input";
  /** true: the terminal's echo of typed text counts as a match too (by default it does not; echo.ts). */
  matchEcho?: boolean;
}

export interface WaitTextResult {
  /** The pattern waited for; with anyOf, the one that matched (or, on a miss, the list's first). */
  pattern: string;
  /** With anyOf: the patterns given, and the index of the one that matched. */
  anyOf?: string[];
  matchedIndex?: number;
  matched: boolean;
  match: MatchValue | null;
  elapsedMs: number;
  timedOut: boolean;
  timeoutMs: number;
  matchedAgainst: "screen" | "raw";
  /** True when the process exited before the pattern appeared (the wait ends early). */
  exited?: boolean;
  /** How the process ended, when it did before a match. */
  exit?: ExitInfo;
  /** True when it had already exited when the wait began. */
  exitedBefore?: boolean;
  /** After a match: milliseconds waited for the program to finish the write burst the match fell in. */
  frameMs?: number;
  /** True when the program was still writing (or busy) when that wait's bound ran out. */
  frameUnfinished?: boolean;
  /** The screen at the instant of the match (or of the timeout / exit); after a match, the finished frame. */
  snapshot: Snapshot;
}

/** How an exit ended a wait, as one phrase: "the program exited (exit code 3) 312 ms into the wait". */
export function exitPhrase(result: Pick<WaitTextResult, "exit" | "elapsedMs" | "exitedBefore">): string {
  const how = result.exit ? describeExit(result.exit) : "exit status unknown";
  if (result.exitedBefore) return `the program had exited (${how}) before the wait`;
  return `the program exited (${how}) ${result.elapsedMs} ms into the wait`;
}

/** The patterns of a wait, in order: anyOf's, or the one pattern. */
export function waitPatterns(options: Pick<WaitTextOptions, "pattern" | "anyOf">): string[] {
  const many = options.anyOf !== undefined;
  if (many === (options.pattern !== undefined))
    throw new TuiError(
      "INVALID_ARGUMENT",
      many ? "pattern and anyOf were both given." : "No pattern to wait for.",
      'Pass pattern (one text), or anyOf (a list, e.g. ["Compiled", "error"]).',
    );
  if (many && (options.anyOf!.length === 0 || options.anyOf!.length > MAX_ANY_OF))
    throw new TuiError(
      "INVALID_ARGUMENT",
      `anyOf has ${options.anyOf!.length} patterns; 1 to ${MAX_ANY_OF} are accepted.`,
      "Wait for fewer texts at once.",
    );
  return many ? options.anyOf! : [options.pattern!];
}

/** One matcher per pattern (a bad one throws, the others are released). */
export function compileAll(options: WaitTextOptions): Matcher[] {
  const matchers: Matcher[] = [];
  try {
    for (const pattern of waitPatterns(options)) matchers.push(compileMatcher({ ...options, pattern }));
  } catch (error) {
    for (const m of matchers) m[Symbol.dispose]();
    throw error;
  }
  return matchers;
}

/**
 * The screen a wait matches (new text only with after: "input"), and which matches count: one made
 * only of the echo of typed text does not (echo.ts), one that takes in any output does, so a pattern
 * that runs from an echoed line into the prompt after it still matches. The JS fallback engine cannot
 * try candidates, so it gets the echo hidden instead.
 */
interface Haystack {
  text: string;
  accept?: (index: number, length: number) => boolean;
  /** The text with the echo's characters hidden (for the JS fallback). */
  hidden: () => string;
}

function screenHaystack(session: Session, options: WaitTextOptions, baseline: Session["lastInput"]): Haystack {
  const viewport = session.emulator.viewport();
  const lines = baseline === null ? viewport.lines : newTextOnly(baseline, viewport);
  const text = lines.join("\n");
  if (options.matchEcho) return { text, hidden: () => text };
  const mask = session.echo.mask(viewport.lines);
  if (mask.size === 0) return { text, hidden: () => text };
  const echo = new Uint8Array(text.length);
  let rowStart = 0;
  for (const [row, line] of lines.entries()) {
    for (const offset of mask.get(row) ?? []) if (offset < line.length) echo[rowStart + offset] = 1;
    rowStart += line.length + 1;
  }
  const accept = (index: number, length: number) => {
    for (let i = index; i < index + length; i++) {
      const char = text[i];
      if (echo[i] === 0 && char !== " " && char !== "\n") return true;
    }
    return false;
  };
  return { text, accept, hidden: () => applyMask(lines, mask, HIDDEN_CHAR).join("\n") };
}

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
        // await at a time and every reply going out at the end, after the last one is built (issue 22).
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
        const still = await findIn(screenHaystack(session, options, baseline), {
          screenCols: session.emulator.cols,
          budgetMs: 100,
        });
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
