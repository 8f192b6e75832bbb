/**
 * The named parts of a reply's text, in the spirit of Playwright MCP's Response with its fixed
 * sections. A handler says what each part is; render-text.ts prints the parts in one fixed order
 * (summary, fields, lines, settleLine, diff, screen, highlights, blocks) and never guesses from field
 * names. structuredContent (the outcome's `data`) is separate and complete.
 */
import { TuiError, type ErrorCode } from "../errors.ts";
import { diffCostsMore, type ScreenBlock, type ScreenView } from "../session/observe.ts";
import { diffSnapshots } from "../term/diff.ts";
import type { Highlight, Snapshot, SnapshotDiff } from "../term/types.ts";
import { missedWaitStatement, settleStatement } from "./settle-words.ts";
import type { ShownScreen } from "./shown-screen.ts";

export type Cursor = Snapshot["cursor"];

/** A screen as the model reads it. Without `text` only the cursor line is printed. */
export interface ScreenPart {
  /** Heading; default "Screen". */
  title?: string;
  text?: string;
  cols?: number;
  rows?: number;
  cursor?: Cursor;
}

/**
 * Changed rows. `rows`: "all" lists every changed row with both sides; "after" lists only the new
 * side; "ranges" names the rows by number (the screen that follows shows them).
 */
export interface DiffPart {
  diff: Pick<SnapshotDiff, "changedLines" | "addedRows" | "removedRows"> & Partial<SnapshotDiff>;
  rows: "all" | "after" | "ranges";
  /** Highlights that are also the screen compared with's: nothing to list again. */
  highlightsUnchanged?: boolean;
  /** The rows differ from the screen last shown, which is not the before-screen (it changed in between). */
  sinceShown?: boolean;
}

export interface ReplyParts {
  /** Facts as `key: value`: scalars on one line, objects as compact JSON lines. */
  fields?: Record<string, unknown>;
  /** Lines a tool writes itself: a match, a session list, frames, script steps. */
  lines?: string[];
  /** One statement on how an input settled ("Settled after 23 ms, quiet."). */
  settleLine?: string;
  diff?: DiffPart;
  screen?: ScreenPart;
  highlights?: readonly Highlight[];
  /** Blocks printed after the screen (the buffer, ANSI, cells, a final screen), already formatted. */
  blocks?: string[];
}

/** Above this many changed rows (and half the screen) the rows are named, not listed: the screen shows them. */
export const MANY_ROWS = 8;

/** Few enough changed rows to list them: at most MANY_ROWS, or at most half the screen. */
const fewRows = (changed: number, rows: number) => changed <= MANY_ROWS || changed <= rows / 2;

/** A TuiError whose details render with named parts (the screen at a failed wait, say). */
export class ReplyError extends TuiError {
  constructor(
    code: ErrorCode,
    message: string,
    hint: string,
    details: Record<string, unknown>,
    readonly parts: ReplyParts,
  ) {
    super(code, message, hint, details);
  }
}

/** Parts of a whole-screen view: snapshot, get_text, a wait's screen, a final screen. */
export function viewParts(view: Pick<ScreenView, "text" | "cursor"> & Partial<ScreenView>, title?: string): ReplyParts {
  const size = view.cols !== undefined ? { cols: view.cols, rows: view.rows } : {};
  const screen: ScreenPart = { text: view.text, cursor: view.cursor, ...size };
  if (title) screen.title = title;
  return { screen, highlights: view.highlights ?? [] };
}

/**
 * Parts of an input's before/after block: settle, changed rows, the after-screen (never the
 * before-screen). `waitMissed`: the input's waitFor timed out without failing it.
 */
export function blockParts(block: ScreenBlock, waitMissed = false): ReplyParts {
  const settleLine = blockSettle(block, waitMissed);
  const changed = block.diff.changedLines.length;
  if (block.after) {
    const listAll = !block.fullScreenInstead && fewRows(changed, block.after.rows);
    const { cursor, highlights } = block.after;
    if (block.diff.identical) {
      // Listed again only when they moved (a selection drawn in colour can move while the text stays).
      const same =
        block.before !== undefined && highlights.length > 0 && sameHighlights(block.before.highlights, highlights);
      const diff: DiffPart = { diff: block.diff, rows: "all", ...(same ? { highlightsUnchanged: true } : {}) };
      return { settleLine, diff, screen: { cursor }, highlights: same ? [] : highlights };
    }
    return { settleLine, diff: { diff: block.diff, rows: listAll ? "all" : "ranges" }, ...viewParts(block.after) };
  }
  const rows = changed > MANY_ROWS ? "after" : "all";
  const highlights = block.highlights ?? [];
  return { settleLine, diff: { diff: block.diff, rows }, screen: { cursor: block.cursor }, highlights };
}

/** A waitFor that timed out (errorOnTimeout: false) settled on its timeout, not on the text. */
const blockSettle = (block: ScreenBlock, waitMissed: boolean) =>
  waitMissed && block.settledBy === "waitFor" ? missedWaitStatement(block) : settleStatement(block);

/**
 * screenDetail "auto": the rows that differ from the screen last shown (the model has that one), when
 * they are few and cost less than the screen. Undefined when the whole after-screen should be printed.
 */
export function sinceShownParts(block: ScreenBlock, shown: ShownScreen): ReplyParts | undefined {
  const after = block.after;
  if (!after || after.cols !== shown.cols || after.rows !== shown.rows) return undefined;
  const diff = diffSnapshots(shown, after);
  if (!fewRows(diff.changedLines.length, after.rows) || diffCostsMore(diff, after)) return undefined;
  const same = after.highlights.length > 0 && sameHighlights(shown.highlights, after.highlights);
  const part: DiffPart = {
    diff,
    rows: "all",
    ...(same ? { highlightsUnchanged: true } : {}),
    ...(block.before?.text === shown.text ? {} : { sinceShown: true }),
  };
  return {
    settleLine: settleStatement(block),
    diff: part,
    screen: { cursor: after.cursor },
    highlights: same ? [] : after.highlights,
  };
}

const sameHighlights = (a: readonly Highlight[], b: readonly Highlight[]) =>
  a.length === b.length && JSON.stringify(a) === JSON.stringify(b);

/** Several parts into one; lines and blocks are joined in order, other parts: the later wins. */
export function mergeParts(...all: (ReplyParts | undefined)[]): ReplyParts {
  const out: ReplyParts = {};
  for (const parts of all) {
    if (!parts) continue;
    const { lines, blocks, fields, ...rest } = parts;
    Object.assign(out, rest);
    if (fields) out.fields = { ...out.fields, ...fields };
    if (lines) out.lines = [...(out.lines ?? []), ...lines];
    if (blocks) out.blocks = [...(out.blocks ?? []), ...blocks];
  }
  return out;
}

/** A reply's text parts: its own, or without any, the fields of its data. */
export function defaultParts(outcome: { parts?: ReplyParts; data: Record<string, unknown> }): ReplyParts {
  return outcome.parts ?? { fields: fieldsWithout(outcome.data) };
}

/** An error's text parts: a ReplyError names its own; any other error's details are plain fields. */
export function errorParts(error: TuiError): ReplyParts | undefined {
  if (error instanceof ReplyError) return error.parts;
  return error.details ? { fields: fieldsWithout(error.details) } : undefined;
}

/** `data` without the named keys: the fields part of a handler whose other keys have their own parts. */
export function fieldsWithout(data: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  const skip = new Set(["sessionId", ...keys]);
  return Object.fromEntries(Object.entries(data).filter(([key]) => !skip.has(key)));
}

/** Beside structuredContent, larger cells JSON is left there instead of being printed twice. */
const MAX_TEXT_CELLS_BYTES = 64 * 1024;

/**
 * The blocks a snapshot adds after its screen: ANSI, cells, the whole buffer. `textOnly`: the text is
 * the only channel (TUI_TESTER_OUTPUT=text), so cells are printed whatever their size; a large reply
 * then goes to a file (reply-cap.ts) and the text names it.
 */
export function snapshotBlocks(snap: Pick<Snapshot, "ansi" | "cells" | "scrollback">, textOnly = false): string[] {
  const out: string[] = [];
  if (snap.ansi !== undefined) out.push("ANSI:", snap.ansi);
  if (snap.cells !== undefined) {
    // Cells are for programs; a model reads the screen and its highlights. Small ones are shown anyway.
    const cells = JSON.stringify(snap.cells);
    const small = textOnly || cells.length <= MAX_TEXT_CELLS_BYTES;
    out.push(small ? `Cells: ${cells}` : `Cells: ${cells.length} bytes of JSON, in structuredContent.cells.`);
  }
  const sb = snap.scrollback;
  if (sb) {
    const how = `${sb.truncated ? `, last ${sb.maxLines} shown` : ""}${sb.isAltScreen ? ", alternate screen" : ""}`;
    out.push(`Buffer (${sb.totalLines} lines${how}):`, sb.text);
    const normal = sb.normalBuffer;
    if (normal) out.push(`Normal buffer behind the alternate screen (${normal.totalLines} lines):`, normal.text);
  }
  return out;
}
