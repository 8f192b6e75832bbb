/**
 * Golden screen files: the rows of the screen (or a region) as text or SGR-coded text, compared
 * with <file> again on every parsed write until they match or the time is up; written only when
 * asked. Shared by run_script's expect_snapshot step and the bun:test matcher toMatchScreenSnapshot.
 */
import { mkdir, rename } from "node:fs/promises";
import { dirname } from "node:path";
import { cancelled, TuiError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { quietPeriod } from "../session/wait.ts";
import { ansiRow } from "../term/ansi-row.ts";
import { watchChanges } from "./change-watch.ts";
import { type Mask, maskCells, maskRows } from "./mask.ts";

export { ansiRow };

/** Rows of a diff shown in a message; the full list is in details.changedRows. */
const MAX_DIFF_ROWS_SHOWN = 40;
/** Characters of one row shown in a diff line (bounded, as every echo of input is). */
const MAX_ROW_CHARS = 300;
/** Before writing a golden, let the app finish its frame: this much quiet, at most SETTLE_MAX_MS. */
const SETTLE_QUIET_MS = 20;
const SETTLE_MAX_MS = 300;

export type GoldenFormat = "text" | "ansi";
export type GoldenUpdate = "none" | "missing" | "all";

export interface GoldenRegion {
  row: number;
  col?: number;
  rows?: number;
  cols?: number;
}

export interface GoldenOptions {
  /** Names the snapshot in messages. */
  name: string;
  file: string;
  format: GoldenFormat;
  region?: GoldenRegion;
  /** Parts of the screen replaced by ▒ before comparing (clocks, pids, spinners). */
  mask?: Mask[];
  update: GoldenUpdate;
  /** How long the screen may take to match. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** The next step when a golden is missing (update "none") or differs, in the caller's own terms. */
  hints: { missing: string; mismatch: string };
}

export type GoldenStatus = "matched" | "written" | "updated" | "unchanged";

export interface GoldenResult {
  status: GoldenStatus;
  rows: number;
  elapsedMs?: number;
}

/** Compare the screen with the golden file; throws ASSERTION_FAILED (with a row diff) when it differs. */
export async function compareGolden(session: Session, options: GoldenOptions): Promise<GoldenResult> {
  const { file, name } = options;
  const capture = () => screenRows(session, options.format, options.region, options.mask);
  const golden = Bun.file(file);
  const stored = (await golden.exists()) ? parseGolden(await golden.text()) : null;
  // masked in the golden too (one written by hand, or before the masks): a masked cell must match whatever it held
  const expected =
    stored && options.format === "text" && options.mask?.length
      ? maskRows(stored, shiftedMasks(options.mask, options.region), options.region?.cols ?? session.cols)
      : stored;
  if (expected === null && options.update === "none") {
    throw new TuiError("ASSERTION_FAILED", `No golden snapshot "${name}" at ${file}.`, options.hints.missing, {
      status: "missing",
      actual: await capture(),
    });
  }
  if (expected === null || options.update === "all") {
    await quietPeriod(session, SETTLE_QUIET_MS, SETTLE_MAX_MS, performance.now(), options.signal);
    const rows = await capture();
    const unchanged = expected !== null && sameRows(expected, rows);
    if (!unchanged) await writeGolden(file, rows);
    return { status: expected === null ? "written" : unchanged ? "unchanged" : "updated", rows: rows.length };
  }
  const { matched, actual, elapsedMs } = await matchWithin(
    session,
    expected,
    capture,
    options.timeoutMs,
    options.signal,
  );
  if (matched) return { status: "matched", rows: actual.length, elapsedMs };
  const diff = rowDiff(expected, actual, options.region?.row ?? 0, options.format === "ansi");
  throw new TuiError(
    "ASSERTION_FAILED",
    `Screen differs from snapshot "${name}" in ${plural(diff.changedRows.length, "row")} ` +
      `(${rowList(diff.changedRows)}), after waiting ${elapsedMs} ms.\n  golden: ${file}\n${diff.text}`,
    options.hints.mismatch,
    { status: "mismatch", changedRows: diff.changedRows, diff: diff.text },
  );
}

/** Rectangles in the coordinates of a snapshot region (the golden holds only the region). */
function shiftedMasks(masks: Mask[], area: GoldenRegion | undefined): Mask[] {
  if (!area) return masks;
  return masks.map((m) =>
    typeof m === "object" && !(m instanceof RegExp)
      ? { ...m, row: m.row - area.row, col: Math.max(0, (m.col ?? 0) - (area.col ?? 0)) }
      : m,
  );
}

/** Compare now and again after every parsed write, until equal, the deadline, or the app exits. */
async function matchWithin(
  session: Session,
  expected: string[],
  capture: () => Promise<string[]>,
  timeoutMs: number,
  signal?: AbortSignal,
) {
  const started = performance.now();
  using changes = watchChanges(session);
  for (;;) {
    if (signal?.aborted) throw cancelled("The snapshot comparison");
    const actual = await capture();
    const elapsedMs = Math.round(performance.now() - started);
    if (sameRows(expected, actual)) return { matched: true, actual, elapsedMs };
    const left = timeoutMs - (performance.now() - started);
    if (left <= 0 || session.state === "exited") return { matched: false, actual, elapsedMs };
    await changes.next(left, signal);
  }
}

/** The rows to compare: plain text (trailing spaces trimmed), or SGR-coded rows for ansi. */
export async function screenRows(
  session: Session,
  format: GoldenFormat,
  area?: GoldenRegion,
  mask: Mask[] = [],
): Promise<string[]> {
  const snap = await session.emulator.settledSnapshot({ grid: true });
  const cells = maskCells(snap.grid ?? [], mask);
  if (area && area.row >= snap.rows) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `region.row ${area.row} is outside the ${snap.cols}x${snap.rows} screen.`,
      `Use a row below ${snap.rows}.`,
    );
  }
  const top = area?.row ?? 0;
  const left = area?.col ?? 0;
  const bottom = Math.min(snap.rows, top + (area?.rows ?? snap.rows));
  const right = Math.min(snap.cols, left + (area?.cols ?? snap.cols));
  return cells.slice(top, bottom).map((row) => {
    const cut = row.slice(left, right);
    return format === "ansi"
      ? ansiRow(cut)
      : cut
          .map((c) => c.char)
          .join("")
          .trimEnd();
  });
}

function parseGolden(text: string): string[] {
  const normal = text.replace(/\r\n/g, "\n");
  return (normal.endsWith("\n") ? normal.slice(0, -1) : normal).split("\n");
}

async function writeGolden(file: string, rows: string[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  // write then rename, so parallel runs never read a half-written golden
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await Bun.write(temp, `${rows.join("\n")}\n`);
  await rename(temp, file);
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;

function rowList(rows: ChangedRow[]): string {
  const shown = rows
    .slice(0, 5)
    .map((r) => r.row)
    .join(", ");
  return `row${rows.length === 1 ? "" : "s"} ${shown}${rows.length > 5 ? ", ..." : ""}`;
}

function sameRows(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((row, i) => row === b[i]);
}

export interface ChangedRow {
  row: number;
  expected: string | null;
  actual: string | null;
}

/** A readable row diff: "-" the golden's row, "+" the screen's, numbered by screen row. */
export function rowDiff(
  expected: string[],
  actual: string[],
  firstRow: number,
  escapes: boolean,
  labels = { unit: "row", expected: "golden", actual: "screen" },
): { changedRows: ChangedRow[]; text: string } {
  const changedRows: ChangedRow[] = [];
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    if (expected[i] !== actual[i])
      changedRows.push({ row: firstRow + i, expected: expected[i] ?? null, actual: actual[i] ?? null });
  }
  const show = (row: string | null) => {
    if (row === null) return "(no row)";
    const visible = escapes ? row.replace(/\x1b/g, "\\e") : row;
    return `|${visible.length > MAX_ROW_CHARS ? `${visible.slice(0, MAX_ROW_CHARS)}…` : visible}|`;
  };
  const width = String(firstRow + Math.max(expected.length, actual.length)).length;
  const lines = [
    labels.unit === "row"
      ? `  - expected (${labels.expected})  + actual (${labels.actual})`
      : `  - ${labels.expected}  + ${labels.actual}`,
  ];
  for (const change of changedRows.slice(0, MAX_DIFF_ROWS_SHOWN)) {
    const label = `${labels.unit} ${String(change.row).padStart(width)}`;
    lines.push(`  - ${label} ${show(change.expected)}`, `  + ${label} ${show(change.actual)}`);
  }
  if (changedRows.length > MAX_DIFF_ROWS_SHOWN)
    lines.push(`  ... and ${changedRows.length - MAX_DIFF_ROWS_SHOWN} more ${labels.unit}(s)`);
  if (expected.length !== actual.length)
    lines.push(
      labels.unit === "row"
        ? `  golden has ${expected.length} rows, screen region has ${actual.length}`
        : `  ${labels.expected} has ${expected.length} ${labels.unit}s, ${labels.actual} has ${actual.length}`,
    );
  return { changedRows, text: lines.join("\n") };
}
