/**
 * How a wait that ended without its text is told: one WAIT_TIMEOUT for every face (the wait tools,
 * an input's waitFor, the library's waits), so each says `<pattern> did not appear within N ms` or
 * `did not appear: the program exited ...` the same way.
 */
import { TuiError } from "../errors.ts";
import { exitPhrase, type WaitTextOptions, type WaitTextResult } from "./wait-spec.ts";

type Miss = Pick<WaitTextResult, "exited" | "exit" | "elapsedMs" | "exitedBefore" | "timeoutMs" | "matchedAgainst">;

/** The patterns as a message names them: `"text"`, `/re/i`, or `anyOf ["a", "b"]`. */
export function shownPatterns(wait: Pick<WaitTextOptions, "pattern" | "anyOf" | "regex" | "regexFlags">): string {
  const show = (p: string) => (wait.regex ? `/${p}/${wait.regexFlags ?? ""}` : JSON.stringify(p));
  return wait.anyOf ? `anyOf [${wait.anyOf.map(show).join(", ")}]` : show(wait.pattern ?? "");
}

/** Why a wait ended without a match: the exit (code or signal, when) or the timeout. */
export function missReason(result: Miss): string {
  return result.exited ? exitPhrase(result) : `within ${result.timeoutMs} ms`;
}

/** A miss that is not an error (errorOnTimeout: false), as a summary says it: the exit, or "timed out after N ms". */
export function notSeenReason(result: Miss): string {
  return result.exited ? exitPhrase(result) : `timed out after ${result.timeoutMs} ms`;
}

export interface MissWords {
  /** The patterns as this face names them. */
  shown: string;
  /** Said before the patterns: what was done first ("Sent 3 bytes, but "). */
  before?: string;
  /** The fix, for a wait the exit ended and for one that ran out of time. */
  hint: { exited: string; timeout: string };
  /** The screen to quote under the message (a test failure shows where it failed). */
  screen?: string;
}

export interface WaitTimeout {
  code: "WAIT_TIMEOUT";
  message: string;
  hint: string;
}

/** WAIT_TIMEOUT's message and fix for a wait that ended without a match. */
export function waitTimeout(result: Miss, words: MissWords): WaitTimeout {
  const why = result.exited
    ? `: ${missReason(result)}`
    : ` within ${result.timeoutMs} ms on the ${result.matchedAgainst}`;
  const screen = words.screen === undefined ? "" : `\n--- screen ---\n${words.screen}`;
  return {
    code: "WAIT_TIMEOUT",
    message: `${words.before ?? ""}${words.shown} did not appear${why}.${screen}`,
    hint: result.exited ? words.hint.exited : words.hint.timeout,
  };
}

/** The same, thrown: details carry what the caller's result would have. */
export function waitTimeoutError(result: Miss, words: MissWords, details?: Record<string, unknown>): TuiError {
  const { code, message, hint } = waitTimeout(result, words);
  return new TuiError(code, message, hint, details);
}

/** WAIT_TIMEOUT for a program that was still running when a wait for its exit ran out. */
export function exitTimeoutError(timeoutMs: number, screen: string): TuiError {
  return new TuiError(
    "WAIT_TIMEOUT",
    `The program did not exit within ${timeoutMs} ms.\n--- screen ---\n${screen}`,
    "Send the key that quits it, raise timeoutMs, or close() it.",
  );
}
