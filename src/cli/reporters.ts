/**
 * The reporters after a run (--reporter html / junit / json, --junit, --json) and the recorder the
 * html reporter's --trace needs. list is the progress output itself (progress.ts).
 */
import { rmSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { VERSION } from "../config.ts";
import { recordingsDir, writeHtmlReport } from "../report/write.ts";
import type { TestOptions } from "./args.ts";
import { junitReport } from "./junit.ts";
import type { TestCase } from "./load.ts";
import type { Paint } from "./progress.ts";
import { createRecorder, type TestRecorder } from "./recording.ts";
import { jsonReport, type RunSummary } from "./report.ts";
import type { TestResult } from "./run-test.ts";

const err = (text: string) => void process.stderr.write(text);

/** The recorder: --trace for the html report (into DIR/recordings), else --record-failures, else none. */
export function testRecorder(options: TestOptions): TestRecorder | undefined {
  if (options.reporters.includes("html") && options.trace !== "off") {
    // The last run's recordings would otherwise stay beside a report that no longer links them.
    rmSync(recordingsDir(options.reportDir), { recursive: true, force: true });
    return createRecorder(recordingsDir(options.reportDir), undefined, options.trace === "on" ? "all" : "failed");
  }
  return options.recordFailures ? createRecorder(resolve(options.outputDir)) : undefined;
}

/** Writes the file reporters; returns what belongs on stdout (the JSON report). */
export async function writeReports(
  options: TestOptions,
  tests: TestCase[],
  results: TestResult[],
  summary: RunSummary,
  workers: number,
  p: Paint,
): Promise<string> {
  const junitFile =
    options.junit ?? (options.reporters.includes("junit") ? join(options.reportDir, "junit.xml") : undefined);
  if (junitFile) {
    const path = resolve(junitFile);
    await mkdir(dirname(path), { recursive: true });
    await Bun.write(path, junitReport(results, summary.durationMs));
    err(p.dim(`JUnit report: ${junitFile}\n`));
  }
  if (options.reporters.includes("html")) {
    const run = {
      tests: tests.map((test, i) => ({ steps: test.steps, result: results[i]! })),
      summary,
      version: VERSION,
      trace: options.trace,
    };
    const { path, bytes } = await writeHtmlReport(options.reportDir, run);
    const shown = relative(process.cwd(), path) || path;
    err(
      p.dim(
        `HTML report: ${shown} (${(bytes / 1024).toFixed(0)} KiB); open it, or run: ` +
          `tui-tester show-report ${options.reportDir}\n`,
      ),
    );
  }
  return options.json || options.reporters.includes("json") ? jsonReport(results, summary, { workers }) : "";
}
