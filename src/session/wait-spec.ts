/**
 * What a text wait is asked for and what it answers: its options, its result, its patterns (one, or
 * anyOf's) compiled, and how an exit that ended it is told.
 */
import { TuiError } from "../errors.ts";
import type { Snapshot } from "../term/types.ts";
import { describeExit, type ExitInfo } from "./exit-info.ts";
import { compileMatcher, type Matcher, type MatchValue, type PatternSpec } from "./matcher.ts";

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
