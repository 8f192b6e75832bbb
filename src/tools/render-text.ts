/**
 * The model's view of a result: the summary line, then the reply's named parts in one fixed order
 * (fields, lines, settleLine, diff, screen, highlights, blocks; see reply.ts). Handlers name the parts;
 * nothing here looks at a tool's field names. The full JSON is the outcome's data (structuredContent in
 * structured mode); by default this text is all a model gets, so every fact it needs is here.
 */
import type { Highlight } from "../term/types.ts";
import type { Cursor, DiffPart, ReplyParts, ScreenPart } from "./reply.ts";

/** Screen text with trailing blank rows dropped; an all-blank screen says so. */
export function screenText(text: string): string {
  const trimmed = text.replace(/\s+$/, "");
  return trimmed === "" ? "(blank screen)" : trimmed;
}

/** "row,col" plus " hidden" when the app hid the cursor. */
export function cursorAt(cursor: Cursor): string {
  return `${cursor.row},${cursor.col}${cursor.visible === false ? " hidden" : ""}`;
}

/** Most highlights listed in the text; a screen painted all over in colour has more than a selection. */
const MAX_HIGHLIGHTS = 40;

/**
 * Spans of one kind that touch, merged: the model is told the kind, not the colour, so two colours
 * side by side (a header's sorted column) read as one span.
 */
function merged(highlights: readonly Highlight[]): Highlight[] {
  const out: Highlight[] = [];
  for (const h of highlights) {
    const prev = out.at(-1);
    if (prev && prev.row === h.row && prev.kind === h.kind && prev.endCol === h.startCol)
      out[out.length - 1] = { ...prev, endCol: h.endCol, text: prev.text + h.text };
    else out.push(h);
  }
  return out;
}

/** A span's text without its trailing blanks (a bar padded to the edge): the columns give its extent. */
const spanText = (h: Highlight, cols: number | undefined) =>
  h.startCol === 0 && h.endCol === cols ? "(whole row)" : JSON.stringify(h.text.trimEnd());

/** One line per row and kind: `29 background: 2-8 "Help", 10-16 "Setup"`. */
function highlightLines(highlights: readonly Highlight[] | undefined, cols?: number): string[] {
  if (!highlights || highlights.length === 0) return [];
  const listed = merged(highlights.slice(0, MAX_HIGHLIGHTS));
  const more = highlights.length - MAX_HIGHLIGHTS;
  const lines: string[] = [];
  let key = "";
  for (const h of listed) {
    const span = `${h.startCol}-${h.endCol} ${spanText(h, cols)}`;
    const rowKind = `${h.row} ${h.kind}`;
    if (rowKind === key) lines[lines.length - 1] += `, ${span}`;
    else lines.push(`${rowKind}: ${span}`);
    key = rowKind;
  }
  return ["Highlighted (row kind: cols text):", ...lines, ...(more > 0 ? [`(${more} more not listed)`] : [])];
}

function screenLines(screen: ScreenPart): string[] {
  if (screen.text === undefined) return screen.cursor ? [`Cursor ${cursorAt(screen.cursor)}.`] : [];
  const size = screen.cols !== undefined ? `${screen.cols}x${screen.rows}` : "";
  const head = [size, screen.cursor ? `cursor ${cursorAt(screen.cursor)}` : ""].filter(Boolean).join(", ");
  return [`${screen.title ?? "Screen"}${head ? ` (${head})` : ""}:`, ...screenText(screen.text).split("\n")];
}

/** The changed rows of a diff, as `row- before` / `row+ after` (blank before-sides omitted). */
export function diffLines({ diff, rows, highlightsUnchanged, sinceShown }: DiffPart): string[] {
  const since = sinceShown ? " since the last screen shown" : "";
  if (diff.identical) return [`Screen unchanged${since}${highlightsUnchanged ? "; highlights as before" : ""}.`];
  const out: string[] = [];
  const changed = diff.changedLines;
  const named = changed.length > 0 && rows === "ranges";
  if (named) out.push(`Changed rows: ${ranges(changed.map((c) => c.row))} (see screen).`);
  else if (changed.length > 0) {
    out.push(`Changed rows${since}:`);
    for (const c of changed) {
      if (rows === "all" && c.before.trim() !== "") out.push(`${c.row}- ${c.before}`);
      out.push(`${c.row}+ ${c.after}`);
    }
  }
  for (const r of diff.addedRows) out.push(`${r.row}+ ${r.text} (added row)`);
  for (const r of diff.removedRows) out.push(`${r.row}- ${r.text} (removed row)`);
  if (diff.resized) out.push("Screen resized.");
  if (out.length === 0 && diff.cursorMoved) out.push("Only the cursor moved.");
  if (highlightsUnchanged) out.push("Highlights as before.");
  return out;
}

function ranges(rows: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j]! + 1) j++;
    parts.push(j > i ? `${rows[i]}-${rows[j]}` : `${rows[i]}`);
    i = j;
  }
  return parts.join(",");
}

function scalar(value: unknown): string {
  if (typeof value === "string") return value.includes("\n") || value.length > 60 ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/** Facts as `key: value` (objects as compact JSON); null means "not applicable" and is left out. */
function fieldLines(fields: Record<string, unknown>): string[] {
  const simple: string[] = [];
  const complex: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined || value === null) continue;
    if (typeof value !== "object") simple.push(`${key}: ${scalar(value)}`);
    else if (Array.isArray(value) && value.length === 0) continue;
    else complex.push(`${key}: ${JSON.stringify(value)}`);
  }
  return [...(simple.length ? [simple.join(", ")] : []), ...complex];
}

/** Every part below the summary, in the fixed order. */
export function partLines(parts: ReplyParts): string[] {
  return [
    ...(parts.fields ? fieldLines(parts.fields) : []),
    ...(parts.lines ?? []),
    ...(parts.settleLine ? [parts.settleLine] : []),
    ...(parts.diff ? diffLines(parts.diff) : []),
    ...(parts.screen ? screenLines(parts.screen) : []),
    ...highlightLines(parts.highlights, parts.screen?.cols),
    ...(parts.blocks ?? []),
  ];
}

/** The summary is one line whatever a handler put in it (a pattern with a newline, say). */
const oneLine = (summary: string) => summary.replaceAll("\r", "\\r").replaceAll("\n", "\\n");

export function renderText(summary: string, parts: ReplyParts): string {
  return [oneLine(summary), ...partLines(parts)].join("\n");
}

export function renderErrorText(error: { code: string; message: string; hint?: string }, parts?: ReplyParts): string {
  const out = [`Error ${error.code}: ${error.message}`];
  if (error.hint) out.push(`Fix: ${error.hint}`);
  if (parts) out.push(...partLines(parts));
  return out.join("\n");
}
