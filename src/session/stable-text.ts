/**
 * Choosing what a saved test waits for and what its goldens mask: text that appeared after an input
 * and held still, never a clock, a date, a duration, a counter or a pid.
 */
import { changedSpans, type Viewport } from "./baseline.ts";

/** Shapes of text that differ from run to run; save_test masks them in goldens and never waits on them. */
export const VOLATILE_PATTERNS: { name: string; regex: string }[] = [
  {
    name: "date(1) output",
    regex:
      String.raw`\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)` +
      String.raw` +\d{1,2} \d{2}:\d{2}:\d{2}( [A-Z]{2,5})? \d{4}\b`,
  },
  {
    name: "ISO date",
    regex: String.raw`\b\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?\b`,
  },
  { name: "month and day", regex: String.raw`\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2}\b` },
  { name: "time of day or clock", regex: String.raw`\b\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?\b` },
  { name: "days of uptime", regex: String.raw`\b\d+ days?,` },
  { name: "duration", regex: String.raw`\b\d+(\.\d+)? ?(ms|µs|us|ns|s|secs?|seconds?|mins?|minutes?)\b` },
  { name: "load average", regex: String.raw`[Ll]oad average:?( +\d+\.\d+)+` },
  { name: "pid", regex: String.raw`\b([Pp][Ii][Dd]|process) *[:=#]? *\d+\b` },
];

const VOLATILE = VOLATILE_PATTERNS.map((p) => new RegExp(p.regex));
/** The same, global, compiled once (matchAll copies it, so sharing is safe). */
const VOLATILE_ALL = VOLATILE_PATTERNS.map((p) => new RegExp(p.regex, "g"));
/** Longest wait text written; longer stable text is cut at a word boundary. */
const MAX_WAIT_TEXT = 40;
/** Separators inside a row (runs of spaces, box drawing): wait text is one phrase between them. */
const PHRASE_BREAK = /\s{2,}|[│┃║|─━═┌┐└┘├┤┬┴┼╔╗╚╝╠╣╦╩╬]+/;

export interface Span {
  row: number;
  col: number;
  length: number;
}

export function isVolatile(text: string): boolean {
  return VOLATILE.some((re) => re.test(text));
}

interface Candidate {
  text: string;
  row: number;
  score: number[];
}

/**
 * Text new since `before` in the last read (what the agent saw before its next input), and in every
 * earlier read either the same or not drawn yet (still what `before` had there): a slow app that had
 * not redrawn when the call returned is fine, a value that changed between reads (a clock, a counter)
 * is not. Never volatile. Preferred: no digits, not an echo of the typed text, on the cursor's row,
 * lower (or higher: on a first screen, titles and menus hold still better than lists), longer.
 */
export function chooseWaitText(
  before: Viewport,
  reads: Viewport[],
  typed: string,
  prefer: "top" | "bottom" = "bottom",
): string | undefined {
  const last = reads.at(-1);
  if (last === undefined) return undefined;
  const candidates: Candidate[] = [];
  // places on a row taken by a clock, a date or a duration: no phrase may overlap them ("Thu Dec" of a date).
  // Found only on rows with new text: eight scans of every row were most of a busy server's work
  // (bench/README.md, the 32-session regression).
  const volatileRows = new Map<number, (readonly [number, number])[]>();
  const volatileAt = (row: number) => {
    let places = volatileRows.get(row);
    if (places === undefined) {
      const line = last.lines[row] ?? "";
      places = VOLATILE_ALL.flatMap((re) =>
        [...line.matchAll(re)].map((m) => [m.index, m.index + m[0].length] as const),
      );
      volatileRows.set(row, places);
    }
    return places;
  };
  const at = (read: Viewport, row: number, col: number, length: number) =>
    read.lines[last.top + row - read.top]?.slice(col, col + length) ?? "";
  for (const span of changedSpans(before, last)) {
    let offset = 0;
    for (const part of span.text.split(PHRASE_BREAK)) {
      const start = span.text.indexOf(part, offset);
      offset = start + part.length;
      const text = cut(part.trim());
      const col = span.col + start + (part.length - part.trimStart().length);
      if (
        text.length === 0 ||
        isVolatile(text) ||
        volatileAt(span.row).some(([a, b]) => col < b && a < col + text.length)
      )
        continue;
      const old = before.screen === last.screen ? at(before, span.row, col, text.length) : "";
      const held = reads.every(
        (read) => read.screen !== last.screen || [text, old].includes(at(read, span.row, col, text.length)),
      );
      if (!held) continue;
      const onCursor = last.cursorRow !== undefined && span.row === last.cursorRow;
      const letters = (text.match(/\p{L}/gu) ?? []).length;
      // a bare prompt ("$", ">>>") is only worth waiting for where the cursor is
      if (letters === 0 && !onCursor) continue;
      candidates.push({
        text,
        row: span.row,
        score: [
          /\d/.test(text) ? 0 : 1,
          typed.includes(text) ? 0 : 1,
          onCursor ? 1 : 0,
          letters >= 3 ? 1 : 0,
          prefer === "bottom" ? span.row : -span.row,
          text.length,
        ],
      });
    }
  }
  candidates.sort((a, b) => compareScores(b.score, a.score));
  return candidates[0]?.text;
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

function cut(text: string): string {
  if (text.length <= MAX_WAIT_TEXT) return text;
  const head = text.slice(0, MAX_WAIT_TEXT);
  const space = head.lastIndexOf(" ");
  return space >= 10 ? head.slice(0, space) : head;
}

/** Spans that changed between consecutive reads of the same screen, widened to the word they sit in. */
export function volatileSpans(reads: Viewport[]): Span[] {
  const spans: Span[] = [];
  for (let i = 1; i < reads.length; i++) {
    const [a, b] = [reads[i - 1]!, reads[i]!];
    if (a.screen !== b.screen || a.top !== b.top) continue;
    for (const row of b.lines.keys()) {
      const [x, y] = [a.lines[row] ?? "", b.lines[row] ?? ""];
      for (let col = 0; col < Math.max(x.length, y.length); col++) {
        if (x[col] === y[col]) continue;
        let start = col;
        let end = col + 1;
        while (start > 0 && (y[start - 1] ?? " ") !== " ") start--;
        while (
          end < Math.max(x.length, y.length) &&
          ((y[end] ?? " ") !== " " || (x[end] ?? " ") !== " " || x[end] !== y[end])
        )
          end++;
        spans.push({ row, col: start, length: end - start });
        col = end;
      }
    }
  }
  return mergeSpans(spans);
}

function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.row - b.row || a.col - b.col);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged.at(-1);
    if (last && last.row === span.row && span.col <= last.col + last.length + 1)
      last.length = Math.max(last.length, span.col + span.length - last.col);
    else merged.push({ ...span });
  }
  return merged;
}
