/**
 * expect_snapshot: compare the screen (or a region of it) with a golden file, <dir>/<name>.txt or
 * .ansi. The screen may take up to timeoutMs to match (it is compared again on every parsed
 * write), so a step right after an input does not race the redraw. Files are written only when
 * asked: update "missing" (the CLI's default) writes absent goldens, "all" rewrites them.
 */
import { mkdir, rename } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import * as v from "valibot";
import { cancelled, TuiError } from "../errors.ts";
import { quietPeriod } from "../session/wait.ts";
import type { Session } from "../session/session.ts";
import type { CellInfo } from "../term/types.ts";
import { annotations, defineSessionTool, type ToolOutcome } from "../tools/define.ts";
import { clampedNumber, sessionId } from "../tools/schemas.ts";
import { checkMasks, collapseMasked, maskedCells, maskLines, maskSchema, shiftMasks, type Mask } from "./mask.ts";

/** Rows of a diff shown in a message; the full list is in details.changedRows. */
const MAX_DIFF_ROWS_SHOWN = 40;
/** Characters of one row shown in a diff line (principle 9: bounded echoes). */
const MAX_ROW_CHARS = 300;
/** Before writing a golden, let the app finish its frame: this much quiet, at most SETTLE_MAX_MS. */
const SETTLE_QUIET_MS = 20;
const SETTLE_MAX_MS = 300;

const region = v.strictObject({
  row: v.pipe(v.number(), v.integer(), v.minValue(0), v.description("First screen row (0-based).")),
  col: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description("First column (0-based).")), 0),
  rows: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Row count. Default: to the bottom."))),
  cols: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Column count. Default: to the right edge."))),
});

export type SnapshotUpdate = "none" | "missing" | "all";

/** Where a test file's goldens live: __snapshots__/<file name>/ beside it (the CLI and save_test agree). */
export function testGoldenDir(testFile: string): string {
  return join(dirname(testFile), "__snapshots__", basename(testFile));
}

export const expectSnapshotStep = defineSessionTool({
  name: "expect_snapshot",
  description: "Compare the screen (or a region) with the golden file <dir>/<name>.txt (.ansi with format ansi); fails with a row diff. Writes files only with update \"missing\" or \"all\".",
  input: v.strictObject({
    sessionId,
    name: v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "name may hold letters, digits, '.', '_' and '-' (it becomes a file name)"), v.description("Snapshot name, the golden file's base name.")),
    format: v.optional(v.pipe(v.picklist(["text", "ansi"]), v.description("text (default) or ansi (SGR colours and attributes per row).")), "text"),
    region: v.optional(v.pipe(region, v.description("Compare only this rectangle, e.g. to leave out a clock or spinner."))),
    dir: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description("Directory of golden files, relative to the session's cwd. Default __snapshots__."))),
    update: v.optional(v.pipe(v.picklist(["none", "missing", "all"]), v.description("none: compare only. missing: write the file when absent. all: rewrite it.")), "none"),
    timeoutMs: clampedNumber(0, 600_000, 5000, "How long the screen may take to match before the step fails."),
    mask: v.optional(maskSchema),
  }),
  annotations: annotations("Expect snapshot", "read"),
  check: (args) => checkMasks(args.mask),
  allowExited: true,
  async act(session, args, ctx): Promise<ToolOutcome> {
    const base = args.dir === undefined ? join(session.config.cwd, "__snapshots__") : isAbsolute(args.dir) ? args.dir : resolve(session.config.cwd, args.dir);
    const file = join(base, `${args.name}.${args.format === "ansi" ? "ansi" : "txt"}`);
    const capture = async () => screenRows(session, args.format, args.region, args.mask);
    const golden = Bun.file(file);
    // a golden written without the masks (by hand, or before they were added) is masked the same way
    const stored = (await golden.exists()) ? parseGolden(await golden.text()) : null;
    const area = args.region;
    const goldenMasks = args.mask && area ? shiftMasks(args.mask, area.row, area.col) : args.mask;
    const expected = stored && args.format === "text" && goldenMasks ? await maskLines(stored, goldenMasks, area?.cols ?? session.cols) : stored;
    const data = { name: args.name, file, format: args.format, ...(args.region ? { region: args.region } : {}) };

    if (expected === null && args.update === "none") {
      throw new TuiError("ASSERTION_FAILED", `No golden snapshot "${args.name}" at ${file}.`, 'Pass update: "missing" to write it from the current screen (the CLI does so unless --ci).', { ...data, status: "missing", actual: await capture() });
    }
    if (expected === null || args.update === "all") {
      await quietPeriod(session, SETTLE_QUIET_MS, SETTLE_MAX_MS, performance.now(), ctx.signal);
      const rows = await capture();
      const unchanged = expected !== null && sameRows(expected, rows);
      if (!unchanged) await writeGolden(file, rows);
      const status = expected === null ? "written" : unchanged ? "unchanged" : "updated";
      return { summary: `Snapshot "${args.name}" ${status === "written" ? "written (it was missing)" : status}: ${file}`, data: { ...data, status, rows: rows.length } };
    }

    const { matched, actual, elapsedMs } = await matchWithin(session, expected, capture, args.timeoutMs, ctx.signal);
    if (matched) return { summary: `Snapshot "${args.name}" matches (${actual.length} rows)`, data: { ...data, status: "matched", elapsedMs } };
    const diff = rowDiff(expected, actual, args.region?.row ?? 0, args.format === "ansi");
    throw new TuiError(
      "ASSERTION_FAILED",
      `Screen differs from snapshot "${args.name}" in ${plural(diff.changedRows.length, "row")} (${rowList(diff.changedRows)}), after waiting ${elapsedMs} ms.\n  golden: ${file}\n${diff.text}`,
      args.update === "none" ? 'If the new screen is right, rerun the CLI with --update-snapshots (or pass update: "all").' : "If the new screen is right, rerun with --update-snapshots.",
      { ...data, status: "mismatch", changedRows: diff.changedRows, diff: diff.text },
    );
  },
});

/** Compare now and again after every parsed write, until equal, the deadline, or the app exits. */
async function matchWithin(session: Session, expected: string[], capture: () => Promise<string[]>, timeoutMs: number, signal: AbortSignal) {
  const started = performance.now();
  for (;;) {
    if (signal.aborted) throw cancelled("expect_snapshot");
    const actual = await capture();
    const elapsedMs = Math.round(performance.now() - started);
    if (sameRows(expected, actual)) return { matched: true, actual, elapsedMs };
    const left = timeoutMs - (performance.now() - started);
    if (left <= 0 || session.state === "exited") return { matched: false, actual, elapsedMs };
    await nextChange(session, left, signal);
  }
}

function nextChange(session: Session, timeoutMs: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const cleanups: (() => void)[] = [];
    const finish = () => {
      for (const cleanup of cleanups) cleanup();
      done();
    };
    cleanups.push(session.emulator.onParsed(finish), session.emulator.onSyncRelease(finish), session.onExit(finish));
    const timer = setTimeout(finish, timeoutMs);
    cleanups.push(() => clearTimeout(timer));
    signal.addEventListener("abort", finish, { once: true });
    cleanups.push(() => signal.removeEventListener("abort", finish));
  });
}

/** The rows to compare: plain text (trailing spaces trimmed), or SGR-coded rows for ansi. */
export async function screenRows(session: Session, format: "text" | "ansi", area?: v.InferOutput<typeof region>, masks?: Mask[]): Promise<string[]> {
  const snap = await session.emulator.settledSnapshot({ grid: true });
  const cells = snap.grid ?? [];
  const masked = await maskedCells(cells, masks);
  if (area && area.row >= snap.rows) {
    throw new TuiError("INVALID_ARGUMENT", `region.row ${area.row} is outside the ${snap.cols}x${snap.rows} screen.`, `Use a row below ${snap.rows}.`);
  }
  const top = area?.row ?? 0;
  const left = area?.col ?? 0;
  const bottom = Math.min(snap.rows, top + (area?.rows ?? snap.rows));
  const right = Math.min(snap.cols, left + (area?.cols ?? snap.cols));
  return cells.slice(top, bottom).map((row, i) => {
    const cut = collapseMasked(row.slice(left, right), masked?.[top + i]?.slice(left, right));
    return format === "ansi" ? ansiRow(cut) : cut.map((c) => c.char).join("").trimEnd();
  });
}

function sgrColour(value: string, base: number): string[] {
  if (value === "default") return [];
  if (value.startsWith("p")) {
    const n = Number(value.slice(1));
    return n < 8 ? [String(base + n)] : n < 16 ? [String(base + 60 + n - 8)] : [`${base + 8};5;${n}`];
  }
  const rgb = Number.parseInt(value.slice(1), 16);
  return [`${base + 8};2;${(rgb >> 16) & 255};${(rgb >> 8) & 255};${rgb & 255}`];
}

/** SGR parameters of a cell (ECMA-48 8.3.117); empty for default attributes. */
function sgrOf(c: CellInfo): string {
  const flags: [boolean, string][] = [[c.bold, "1"], [c.dim, "2"], [c.italic, "3"], [c.underline, "4"], [c.blink, "5"], [c.inverse, "7"], [c.invisible, "8"], [c.strikethrough, "9"], [c.overline, "53"]];
  return [...flags.filter(([on]) => on).map(([, code]) => code), ...sgrColour(c.fg, 30), ...sgrColour(c.bg, 40)].join(";");
}

/** One row as text with SGR runs, reset at the end; trailing default blanks dropped. */
export function ansiRow(cells: CellInfo[]): string {
  const shown = cells.filter((c) => c.width > 0);
  let end = shown.length;
  while (end > 0 && shown[end - 1]!.char === " " && sgrOf(shown[end - 1]!) === "") end--;
  let out = "";
  let current = "";
  for (const cell of shown.slice(0, end)) {
    const sgr = sgrOf(cell);
    if (sgr !== current) out += sgr === "" ? "\x1b[0m" : `\x1b[0;${sgr}m`;
    current = sgr;
    out += cell.char;
  }
  return current === "" ? out : `${out}\x1b[0m`;
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
  const shown = rows.slice(0, 5).map((r) => r.row).join(", ");
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
export function rowDiff(expected: string[], actual: string[], firstRow: number, escapes: boolean): { changedRows: ChangedRow[]; text: string } {
  const changedRows: ChangedRow[] = [];
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    if (expected[i] !== actual[i]) changedRows.push({ row: firstRow + i, expected: expected[i] ?? null, actual: actual[i] ?? null });
  }
  const show = (row: string | null) => {
    if (row === null) return "(no row)";
    const visible = escapes ? row.replace(/\x1b/g, "\\e") : row;
    return `|${visible.length > MAX_ROW_CHARS ? `${visible.slice(0, MAX_ROW_CHARS)}…` : visible}|`;
  };
  const width = String(firstRow + Math.max(expected.length, actual.length)).length;
  const lines = ["  - expected (golden)  + actual (screen)"];
  for (const change of changedRows.slice(0, MAX_DIFF_ROWS_SHOWN)) {
    const label = `row ${String(change.row).padStart(width)}`;
    lines.push(`  - ${label} ${show(change.expected)}`, `  + ${label} ${show(change.actual)}`);
  }
  if (changedRows.length > MAX_DIFF_ROWS_SHOWN) lines.push(`  ... and ${changedRows.length - MAX_DIFF_ROWS_SHOWN} more row(s)`);
  if (expected.length !== actual.length) lines.push(`  golden has ${expected.length} rows, screen region has ${actual.length}`);
  return { changedRows, text: lines.join("\n") };
}
