/** The library's wait arguments (a string or RegExp, and a few options) as the engine's wait options. */
import { TuiError } from "../errors.ts";
import { compileMatcher } from "../session/matcher.ts";
import type { WaitTextOptions, WaitTextResult } from "../session/wait.ts";
import { clip } from "../util/clip.ts";

/** A literal substring, or a RegExp (its flags i, m, s, u, v, d are kept; g and y mean nothing here). */
export type TextPattern = string | RegExp;

export interface WaitForOptions {
  /** Treat a string pattern as a RegExp source. Default false. */
  regex?: boolean;
  /** Default 5000. */
  timeoutMs?: number;
  /** Match the raw output (escapes included) instead of the screen. Default false. */
  raw?: boolean;
  /** "input": only text that was not on the screen before the latest input counts (not a leftover match). */
  after?: "input";
}

/** How long a library wait or screen matcher waits when the caller names no timeout (the tools' default too). */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Screen rows a failed wait quotes in its message. */
const MAX_SCREEN_CHARS = 8000;

export function toWaitOptions(pattern: TextPattern, options: WaitForOptions = {}): WaitTextOptions {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!(timeoutMs >= 0))
    throw new TuiError(
      "INVALID_ARGUMENT",
      `timeoutMs ${timeoutMs} is not a number of milliseconds.`,
      "Pass e.g. { timeoutMs: 10000 }.",
    );
  const spec =
    pattern instanceof RegExp
      ? { pattern: pattern.source, regex: true, regexFlags: pattern.flags.replace(/[gy]/g, "") }
      : { pattern, regex: options.regex ?? false, regexFlags: "" };
  if (spec.pattern.length === 0)
    throw new TuiError("INVALID_ARGUMENT", "The pattern is empty.", "Pass the text to wait for.");
  // A bad pattern fails here, before anything is sent or waited for.
  compileMatcher(spec)[Symbol.dispose]();
  const after = options.after ? { after: options.after } : {};
  return { ...spec, timeoutMs, pollIntervalMs: 50, matchScreen: !options.raw, ...after };
}

/** WAIT_TIMEOUT for a wait that ended without a match, quoting the screen it ended on. */
export function waitFailure(
  wait: WaitTextOptions,
  result: Omit<WaitTextResult, "snapshot">,
  screenText: string,
): TuiError {
  const why = result.exited ? "the program exited first" : `not within ${wait.timeoutMs} ms`;
  const shown = wait.regex ? `/${wait.pattern}/${wait.regexFlags ?? ""}` : JSON.stringify(wait.pattern);
  return new TuiError(
    "WAIT_TIMEOUT",
    `${clip(shown, 200)} did not appear on the ${result.matchedAgainst}: ${why}.\n` +
      `--- screen ---\n${clip(screenText, MAX_SCREEN_CHARS)}`,
    result.exited
      ? "Check how it exited with exitInfo() and raw()."
      : "Check the pattern against the screen above, or raise timeoutMs.",
    { ...result },
  );
}
