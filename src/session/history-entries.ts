/**
 * What a session's input history holds (history.ts keeps it): its entries in order, and the launch
 * and wait specs a saved test is written from.
 */
import type { Span } from "./stable-text.ts";
import type { InputSource } from "./input-starts.ts";

export interface LaunchArgs {
  command: string;
  args: string[];
  cwd: string;
  env?: Record<string, string | null>;
  cols: number;
  rows: number;
  term: string;
  clock?: string;
  isolate?: boolean;
  passEnv?: string[];
}

export interface WaitSpec {
  pattern: string;
  regex?: boolean;
  regexFlags?: string;
  matchScreen?: boolean;
  timeoutMs?: number;
  after?: "input";
  matchEcho?: boolean;
}

export interface InputEntry {
  kind: "input";
  /** The step type: send_keys, send_text, send_raw, paste, mouse, resize, type_text, hold_key. */
  type: string;
  args: Record<string, unknown>;
  source: InputSource;
  /** The agent's inline waitFor, when it matched; `newOnly` when the match was text new since the input. */
  waitFor?: WaitSpec & { newOnly: boolean };
  /**
   * False when the call returned before the app was back at rest (its settle timed out): the next
   * input may then have gone in while this one was still being drawn, so text that appeared after the
   * next input may really be this one's, and is not trusted as the next input's wait.
   */
  settled?: boolean;
  /** Stable text that appeared after this input, chosen once the next input began (or at save). */
  waitText?: string;
  /** The screen when the next input began, with the spans seen changing, when within the budget. */
  screen?: { lines: string[]; volatile: Span[] };
  /** With no new text: the highlight the input moved (a menu's bar), to wait for it in colour. */
  highlight?: HighlightWait;
}

/** A highlight an input moved: where it went, its text, and its cells as an ansi golden row. */
export interface HighlightWait {
  row: number;
  col: number;
  cols: number;
  text: string;
  ansi: string;
}

export interface WaitEntry {
  kind: "wait";
  args: WaitSpec;
}

export interface CheckEntry {
  kind: "check";
  args: Record<string, unknown>;
}

export type HistoryEntry = InputEntry | WaitEntry | CheckEntry;
