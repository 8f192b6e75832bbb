/** What a run reports: the failure block per failed test, the summary line, and the JSON report. */
import { relative } from "node:path";
import { VERSION } from "../config.ts";
import { formatDuration, type Paint } from "./progress.ts";
import type { TestResult } from "./run-test.ts";

/** Rows of a failing screen shown in the text report (bounded; the JSON report has them all). */
const MAX_SCREEN_ROWS = 60;

export interface RunSummary {
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  durationMs: number;
}

export function summarize(results: TestResult[], durationMs: number): RunSummary {
  return {
    passed: results.filter((r) => r.status === "passed").length,
    failed: results.filter((r) => r.status === "failed").length,
    flaky: results.filter((r) => r.flaky).length,
    skipped: results.filter((r) => r.status === "skipped").length,
    durationMs,
  };
}

/** The failing screen: rows after the last non-empty one are left out, each row framed so trailing spaces show. */
export function screenBlock(screen: NonNullable<TestResult["screen"]>, indent = "  "): string {
  let last = screen.lines.length - 1;
  while (last >= 0 && screen.lines[last]!.trim() === "") last--;
  const shown = screen.lines.slice(0, Math.min(last + 1, MAX_SCREEN_ROWS));
  const rows = shown.map((line, i) => `${indent}${String(i).padStart(3)} │${line}`);
  const rest = screen.lines.length - shown.length;
  if (rest > 0) rows.push(`${indent}    │ (${rest} more row(s)${last + 1 > MAX_SCREEN_ROWS ? "" : ", empty"})`);
  return [
    `${indent}screen at the failure (${screen.cols}x${screen.rows}, cursor row ` +
      `${screen.cursor.row} col ${screen.cursor.col}):`,
    ...rows,
  ].join("\n");
}

/** Everything a reader needs to fix a failed test, as plain text (also the JUnit failure body). */
export function failureReport(result: TestResult, p: Paint, cwd = process.cwd()): string {
  const f = result.failure!;
  const out: string[] = [
    p.red(p.bold(`✗ ${result.title}`)) +
      (result.attempts > 1 ? ` (failed ${result.attempts} attempts; the last is shown)` : ""),
  ];
  const where =
    f.step !== undefined
      ? `step ${f.step} (${f.stepType}${f.stepLabel ? ` "${f.stepLabel}"` : ""}) failed: `
      : f.timedOut
        ? "timed out: "
        : "";
  const [first, ...more] = f.message.split("\n");
  out.push(`  ${where}${first}`, ...more.map((line) => `  ${line}`));
  if (f.hint) out.push(`  Fix: ${f.hint}`);
  if (result.steps.length > 0) {
    out.push("  steps:");
    for (const s of result.steps)
      out.push(
        `    ${s.ok ? p.green("✓") : p.red("✗")} ${s.index} ` +
          `${s.type}${s.label ? ` "${s.label}"` : ""} ` +
          `${p.dim(`(${formatDuration(s.elapsedMs)})`)}`,
      );
    const notRun = result.stepsPlanned - result.steps.length;
    if (notRun > 0) {
      const which =
        notRun === 1 ? `step ${result.steps.length}` : `steps ${result.steps.length}-${result.stepsPlanned - 1}`;
      out.push(p.dim(`    · ${which} not run`));
    }
  }
  if (result.screen) out.push(screenBlock(result.screen));
  if (result.recording?.path)
    out.push(`  recording: ${relative(cwd, result.recording.path)} (play it with: asciinema play <file>)`);
  else if (result.recording?.unavailable) out.push(p.dim(`  ${result.recording.unavailable}`));
  return out.join("\n");
}

export function summaryLine(s: RunSummary, results: TestResult[], p: Paint): string {
  const parts = [p.green(`${s.passed} passed`) + (s.flaky > 0 ? p.yellow(` (${s.flaky} flaky)`) : "")];
  if (s.failed > 0) parts.push(p.red(`${s.failed} failed`));
  if (s.skipped > 0) parts.push(p.dim(`${s.skipped} skipped`));
  const notes = results.flatMap((r) => r.snapshots);
  const written = notes.filter((n) => n.status === "written").length;
  const updated = notes.filter((n) => n.status === "updated").length;
  if (written > 0) parts.push(p.yellow(`${written} snapshot(s) written`));
  if (updated > 0) parts.push(p.yellow(`${updated} snapshot(s) updated`));
  return `${parts.join(", ")} in ${formatDuration(s.durationMs)}`;
}

export function jsonReport(results: TestResult[], summary: RunSummary, options: { workers: number }): string {
  const report = {
    tool: "tui-tester",
    version: VERSION,
    ok: summary.failed === 0,
    ...summary,
    workers: options.workers,
    tests: results,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
