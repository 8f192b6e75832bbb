/**
 * A session's input history, for save_test: every input in order (the agent's tool calls and a
 * human's typing in the web viewer, as the same step types), the agent's waits that matched and its
 * assertions that passed.
 *
 * Bounded (docs/design.md: everything is bounded): at most MAX_HISTORY_ENTRIES entries and MAX_HISTORY_PAYLOAD
 * characters of typed or pasted text. Past either bound the history stops recording and says so
 * (`full`); the session itself goes on. save_test then refuses, since a test that stops halfway
 * through a session would not reproduce the screen it ended on.
 *
 * For the waits save_test inserts, each input keeps the screen around it only until the next input
 * begins: then the text that appeared after it and held still is chosen (stable-text.ts), and only
 * that short text, plus the screen the agent saw (within MAX_KEPT_SCREEN_CHARS, for snapshots:
 * "waits"), is kept.
 */
import type { ScreenBaseline, Viewport } from "./baseline.ts";
import { decodeHumanInput } from "./human-input.ts";
import type { HistoryEntry, InputEntry, LaunchArgs, WaitSpec } from "./history-entries.ts";
import type { Session } from "./session.ts";
import { applyMask } from "../term/echo-cells.ts";
import { chooseWaitText, volatileSpans } from "./stable-text.ts";
import type { Highlight } from "../term/types.ts";
import { movedHighlight } from "./moved-highlight.ts";
import { ansiRow } from "../term/ansi-row.ts";

export type { HistoryEntry, InputEntry, LaunchArgs, WaitSpec } from "./history-entries.ts";

export const MAX_HISTORY_ENTRIES = 500;
export const MAX_HISTORY_PAYLOAD = 4 * 1024 * 1024;
export const MAX_KEPT_SCREEN_CHARS = 1024 * 1024;
/** What an echoed cell becomes before a wait text is chosen: a rule, which ends a phrase there. */
const ECHO_BLANK = "│";

/** Secret texts a session remembers to scrub from what it saves; past it the history stops (save_test refuses). */
const MAX_SECRETS = 100;
/** Shorter runs of a secret are not masked on screens: a 2-letter mask would hide every such pair. */
const MIN_SECRET_PIECE = 4;

interface Pending {
  entry: InputEntry;
  before: Viewport;
  /** The screen when the agent's call returned (human input has none). */
  after?: Viewport;
  /** The highlights just before the input. */
  highlightsBefore: Highlight[];
}

export class InputHistory {
  readonly entries: HistoryEntry[] = [];
  /** Why recording stopped, once a bound was crossed. */
  full: { reason: string; at: string } | null = null;
  /** Calls not kept because they failed: assertions that did not pass, waits that timed out. */
  readonly leftOut: string[] = [];
  private payload = 0;
  private keptScreenChars = 0;
  private pending: Pending | null = null;
  /** The input closed last, so a human's next key can reopen it and extend its text. */
  private lastClosed: Pending | null = null;
  /** The highlights when the latest input began (the before of the input now pending). */
  private highlightsBefore: Highlight[] = [];
  private started = false;
  /** Stable text on the screen when the first input began. */
  readyText: string | undefined;
  /** Texts sent with secret: true, in memory only: what is saved is scrubbed of them (never written). */
  readonly secrets: string[] = [];

  constructor(
    private readonly session: Session,
    readonly launch: LaunchArgs,
  ) {
    session.onInputStart((baseline) => {
      // what a rerun waits for before its first input: the app's first screen, as the agent saw it
      if (!this.started) this.readyText = chooseWaitText({ ...baseline, lines: [] }, [baseline], "", "top");
      this.started = true;
      const highlights = this.highlightsNow();
      this.closePending(baseline, undefined, highlights);
      this.highlightsBefore = highlights;
    });
    session.onInput((bytes, from) => {
      if (from === "human") this.human(bytes);
    });
    session.onResize((size, from) => {
      if (from === "human") this.human(null, size);
    });
  }

  /** An agent input call ended: kept when it wrote (its baseline is newer than the call's start). */
  agentInput(
    type: string,
    args: Record<string, unknown>,
    baselineBefore: ScreenBaseline | null,
    waitFor?: InputEntry["waitFor"],
    settled = true,
  ): void {
    const baseline = this.session.lastInput;
    if (baseline === null || baseline === baselineBefore) return;
    const entry: InputEntry = {
      kind: "input",
      type,
      args,
      source: "agent",
      ...(waitFor ? { waitFor } : {}),
      ...(settled ? {} : { settled: false }),
    };
    if (!this.add(entry, payloadOf(args))) return;
    this.pending = {
      entry,
      before: baseline,
      after: this.session.running ? this.session.emulator.viewport() : undefined,
      highlightsBefore: this.highlightsBefore,
    };
  }

  /**
   * A secret send_text as a test keeps it: a placeholder naming the variable a rerun reads it from
   * (TUI_SECRET_1, 2, ...; keyboard.ts expands it). A text that already is such a placeholder is kept.
   */
  secretArgs(text: string): Record<string, unknown> {
    if (/\$\{env:TUI_SECRET_\w+\}/.test(text)) return { text, secret: true };
    if (this.secrets.length >= MAX_SECRETS && !this.full)
      this.full = { reason: `${MAX_SECRETS} secret texts`, at: new Date().toISOString() };
    // what a screen can show of it: its printable runs (Enter and other control keys never echo as such)
    for (const piece of text.split(/[\x00-\x1f\x7f]+/)) if (piece.length >= MIN_SECRET_PIECE) this.secrets.push(piece);
    const used = this.entries.filter((e) => e.kind === "input" && e.args.secret === true).length;
    return { text: `\${env:TUI_SECRET_${used + 1}}`, secret: true };
  }

  wait(args: WaitSpec): void {
    this.add({ kind: "wait", args }, 0);
  }

  check(args: Record<string, unknown>): void {
    this.add({ kind: "check", args }, 0);
  }

  note(what: string): void {
    if (this.leftOut.length < 50) this.leftOut.push(what);
  }

  /**
   * Close the pending input against the screen now, as the next input would (save_test calls this
   * before reading the entries). Bookkeeping only: it waits for nothing.
   */
  settle(now: Viewport, later?: Viewport): void {
    this.closePending(now, later, this.highlightsNow());
  }

  /**
   * The reads with the echo of recent typing blanked in the newest (the one waits are chosen from):
   * waits skip the echo, so a saved wait on the typed command line would never match.
   */
  private withoutEcho(reads: Viewport[]): Viewport[] {
    const last = reads.at(-1);
    if (last === undefined) return reads;
    const mask = this.session.echo.mask(last.lines);
    if (mask.size === 0) return reads;
    return [...reads.slice(0, -1), { ...last, lines: applyMask(last.lines, mask, ECHO_BLANK) }];
  }

  private highlightsNow(): Highlight[] {
    return this.session.running ? (this.session.emulator.snapshot({ highlights: true }).highlights ?? []) : [];
  }

  private human(bytes: Uint8Array | null, size?: { cols: number; rows: number }): void {
    const steps: { type: string; args: Record<string, unknown> }[] = size
      ? [{ type: "resize", args: { cols: size.cols, rows: size.rows } }]
      : decodeHumanInput(bytes!, this.session.emulator.keyboardModes());
    const baseline = this.session.lastInput!;
    for (const step of steps) {
      // A human types a word one key at a time: consecutive characters (or keys) make one step.
      const last = this.lastClosed;
      const mergeable = step.type === "send_text" || step.type === "send_keys";
      if (
        mergeable &&
        last &&
        last.entry.source === "human" &&
        last.entry.type === step.type &&
        this.entries.at(-1) === last.entry &&
        !this.full
      ) {
        if (step.type === "send_text") last.entry.args.text = String(last.entry.args.text) + String(step.args.text);
        else (last.entry.args.keys as string[]).push(...(step.args.keys as string[]));
        this.payload += payloadOf(step.args);
        this.unkeep(last.entry);
        this.pending = last;
        continue;
      }
      const entry: InputEntry = { kind: "input", type: step.type, args: step.args, source: "human" };
      if (!this.add(entry, payloadOf(step.args))) return;
      this.pending = { entry, before: baseline, highlightsBefore: this.highlightsBefore };
    }
  }

  private add(entry: HistoryEntry, payload: number): boolean {
    if (this.full) return false;
    if (this.entries.length >= MAX_HISTORY_ENTRIES)
      this.full = { reason: `${MAX_HISTORY_ENTRIES} entries`, at: new Date().toISOString() };
    else if (this.payload + payload > MAX_HISTORY_PAYLOAD)
      this.full = {
        reason: `${MAX_HISTORY_PAYLOAD} characters of typed and pasted text`,
        at: new Date().toISOString(),
      };
    if (this.full) return false;
    this.payload += payload;
    this.entries.push(entry);
    return true;
  }

  /** The input before this one is over: choose its wait text from the screens around it, keep its screen. */
  private closePending(now: Viewport | ScreenBaseline, later?: Viewport, highlights: Highlight[] = []): void {
    const pending = this.pending;
    if (pending === null) return;
    this.pending = null;
    this.lastClosed = pending;
    const reads = [pending.after, now, later].filter((v): v is Viewport => v !== undefined);
    const text = chooseWaitText(pending.before, this.withoutEcho(reads), payloadText(pending.entry.args));
    // an echoed secret is no wait: the saved test would hold it
    if (text !== undefined && !this.secrets.some((secret) => text.includes(secret))) pending.entry.waitText = text;
    else {
      const moved = movedHighlight(pending.highlightsBefore, highlights);
      const grid = moved && this.session.running ? this.session.emulator.snapshot({ grid: true }).grid : undefined;
      const cells = moved && grid?.[moved.row]?.slice(moved.startCol, moved.endCol);
      if (moved && cells && !this.secrets.some((secret) => moved.text.includes(secret)))
        pending.entry.highlight = {
          row: moved.row,
          col: moved.startCol,
          cols: moved.endCol - moved.startCol,
          text: moved.text.trim(),
          ansi: ansiRow(cells),
        };
    }
    const size = now.lines.reduce((n, line) => n + line.length, 0);
    if (this.keptScreenChars + size <= MAX_KEPT_SCREEN_CHARS) {
      this.keptScreenChars += size;
      pending.entry.screen = { lines: now.lines, volatile: volatileSpans(reads) };
    }
  }

  private unkeep(entry: InputEntry): void {
    if (entry.screen) this.keptScreenChars -= entry.screen.lines.reduce((n, line) => n + line.length, 0);
    delete entry.screen;
    delete entry.waitText;
    delete entry.highlight;
  }
}

function payloadText(args: Record<string, unknown>): string {
  return typeof args.text === "string" ? args.text : typeof args.utf8 === "string" ? args.utf8 : "";
}

function payloadOf(args: Record<string, unknown>): number {
  return (
    payloadText(args).length +
    (typeof args.hex === "string" ? args.hex.length : 0) +
    (typeof args.base64 === "string" ? args.base64.length : 0)
  );
}
