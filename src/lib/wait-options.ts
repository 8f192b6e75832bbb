/** The library's wait arguments (a string or RegExp, or { anyOf }, and a few options) as the engine's wait options. */
import { TuiError } from "../errors.ts";
import { compileAll, type WaitTextOptions, type WaitTextResult } from "../session/wait.ts";
import { shownPatterns, waitTimeoutError } from "../session/wait-miss.ts";
import { clip } from "../util/clip.ts";

/** A literal substring, or a RegExp (its flags i, m, s, u, v, d are kept; g and y mean nothing here). */
export type TextPattern = string | RegExp;

/** Several patterns: the wait ends on the first that appears (all strings, or all RegExps with the same flags). */
export interface AnyOfPatterns {
  anyOf: TextPattern[];
}

export interface WaitForOptions {
  /** Treat a string pattern as a RegExp source. Default false. */
  regex?: boolean;
  /** Default 5000. */
  timeoutMs?: number;
  /** Match the raw output (escapes included) instead of the screen. Default false. */
  raw?: boolean;
  /** "input": only text that was not on the screen before the latest input counts (not a leftover match). */
  after?: "input";
  /** true: the terminal's echo of what was typed may match too (by default only the program's output does). */
  matchEcho?: boolean;
}

/** How long a library wait or screen matcher waits when the caller names no timeout (the tools' default too). */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Screen rows a failed wait quotes in its message. */
const MAX_SCREEN_CHARS = 8000;

type Spec = Pick<WaitTextOptions, "pattern" | "anyOf" | "regex" | "regexFlags">;

function specOf(pattern: TextPattern | AnyOfPatterns, regex: boolean): Spec {
  if (pattern instanceof RegExp)
    return { pattern: pattern.source, regex: true, regexFlags: pattern.flags.replace(/[gy]/g, "") };
  if (typeof pattern === "string") return { pattern, regex, regexFlags: "" };
  const list = pattern?.anyOf;
  if (!Array.isArray(list) || list.length === 0)
    throw new TuiError(
      "INVALID_ARGUMENT",
      "anyOf is not a list of patterns.",
      'Pass e.g. { anyOf: ["Compiled", "error"] }.',
    );
  const specs = list.map((p) => specOf(p, regex));
  const first = specs[0]!;
  if (specs.some((s) => s.regex !== first.regex || s.regexFlags !== first.regexFlags))
    throw new TuiError(
      "INVALID_ARGUMENT",
      "anyOf mixes strings and RegExps (or RegExps with different flags).",
      "Give all strings, or all RegExps with the same flags.",
    );
  return { anyOf: specs.map((s) => s.pattern!), regex: first.regex, regexFlags: first.regexFlags };
}

export function toWaitOptions(pattern: TextPattern | AnyOfPatterns, options: WaitForOptions = {}): WaitTextOptions {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs >= 0))
    throw new TuiError(
      "INVALID_ARGUMENT",
      `timeoutMs ${timeoutMs} is not a number of milliseconds.`,
      "Pass e.g. { timeoutMs: 10000 }.",
    );
  const spec = specOf(pattern, options.regex ?? false);
  if (spec.pattern === "" || spec.anyOf?.includes(""))
    throw new TuiError("INVALID_ARGUMENT", "The pattern is empty.", "Pass the text to wait for.");
  // A bad pattern fails here, before anything is sent or waited for.
  const wait: WaitTextOptions = {
    ...spec,
    timeoutMs,
    pollIntervalMs: 50,
    matchScreen: !options.raw,
    ...(options.after ? { after: options.after } : {}),
    ...(options.matchEcho ? { matchEcho: true } : {}),
  };
  for (const m of compileAll(wait)) m[Symbol.dispose]();
  return wait;
}

/** WAIT_TIMEOUT for a wait that ended without a match, quoting the screen it ended on. */
export function waitFailure(
  wait: WaitTextOptions,
  result: Omit<WaitTextResult, "snapshot">,
  screenText: string,
): TuiError {
  return waitTimeoutError(
    result,
    {
      shown: clip(shownPatterns(wait), 400),
      hint: {
        exited: "Check how it exited with exitInfo() and raw().",
        timeout: "Check the pattern against the screen above, or raise timeoutMs.",
      },
      screen: clip(screenText, MAX_SCREEN_CHARS),
    },
    { ...result },
  );
}
