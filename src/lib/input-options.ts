/** A Terminal input's options and result, and the options as the engine's observeInput takes them. */
import type { KeySpecInput } from "../keys/index.ts";
import type { ObserveOptions, ScreenBlock, ScreenView } from "../session/observe.ts";
import { toWaitOptions, type AnyOfPatterns, type TextPattern, type WaitForOptions } from "./wait-options.ts";

/** A key: a chord such as "ctrl+c", "F2", "shift+tab", "A", or { key, ctrl, shift, alt, meta }. */
export type Key = string | KeySpecInput;

export interface InputOptions {
  /**
   * Wait for this text after the input; the after-screen is the frame where it matched. Throws
   * WAIT_TIMEOUT on a miss.
   */
  waitFor?: TextPattern | (({ pattern: TextPattern } | AnyOfPatterns) & WaitForOptions);
  /** Fixed settle in ms before the after-screen; omitted: until the program waits for input again (at most 2 s). */
  waitAfterMs?: number;
  /** false: send only, no before/after screens (fastest). Default true. */
  captureScreen?: boolean;
  /** "diff": changed rows, cursor and highlights only. Default "full". */
  screenDetail?: "full" | "diff";
}

/** What an input returns: the same fields as the MCP input tools' structured results. */
export interface InputResult {
  summary: string;
  sessionId: string;
  bytesSent: number;
  /** Before/after screens, their diff and the settle facts (absent with captureScreen: false). */
  screen?: ScreenBlock;
  waitFor?: { pattern: string; matched: boolean; elapsedMs: number; [field: string]: unknown };
  [field: string]: unknown;
}

export interface TextMatch {
  /** The matched text (a literal), or the full match then its groups (a RegExp). */
  match: string | string[];
  /** With anyOf: the index of the pattern that matched. */
  index?: number;
  elapsedMs: number;
  /** The screen at the instant of the match. */
  screen: ScreenView;
}

/**
 * The library's input options as the engine's: a missed inline wait is an error (a test should fail)
 * whose message quotes the screen it failed on.
 */
export function observeOptions(options: InputOptions): ObserveOptions {
  return {
    captureScreen: options.captureScreen ?? true,
    waitAfterMs: options.waitAfterMs,
    waitFor: options.waitFor === undefined ? undefined : { ...inlineWait(options.waitFor), errorOnTimeout: true },
    screenDetail: options.screenDetail ?? "full",
    quoteScreen: true,
  };
}

function inlineWait(waitFor: NonNullable<InputOptions["waitFor"]>) {
  if (typeof waitFor === "string" || waitFor instanceof RegExp) return toWaitOptions(waitFor);
  return toWaitOptions("anyOf" in waitFor ? { anyOf: waitFor.anyOf } : waitFor.pattern, waitFor);
}
