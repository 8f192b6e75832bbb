/**
 * A run of test files inside a process that already has a server context: the run_tests tool and
 * the library's runTests. The same pieces as `tui-tester test` (discover, load, --filter, --shard,
 * --repeat, runTest per test), bounded by a time budget, with a compact text report for a model.
 */
import { TuiError } from "../errors.ts";
import { BUN_TEST_FILE, type BunTestRun, findBunTests, runBunTests } from "./bun-tests.ts";
import type { ServerContext } from "../tools/context.ts";
import { UsageError } from "./args.ts";
import { discoverTestFiles } from "./discover.ts";
import { loadTests, type TestCase } from "./load.ts";
import { formatDuration } from "./progress.ts";
import { screenBlock, summarize, type RunSummary } from "./report.ts";
import { runTest, type TestResult } from "./run-test.ts";
import { repeatTests, shardTests, type Shard } from "./shard.ts";

export interface RunTestsOptions {
  /** Files or folders (default: the working directory); *.test.ts files run under bun test. */
  paths?: string[];
  /** Only tests whose title ("file › name") matches this RegExp source. */
  grep?: string;
  /** Accept new goldens: rewrite every snapshot from the screen. */
  update?: boolean;
  /** CI mode: a missing golden fails instead of being written. */
  ci?: boolean;
  repeat?: number;
  shard?: Shard;
  /** The whole run's budget; tests not started by then are reported as not run. */
  timeoutMs?: number;
  /** Per test attempt (a test file's timeoutMs wins). */
  testTimeoutMs?: number;
  workers?: number;
  /** Failures shown in full in the text report. */
  maxFailures?: number;
  cwd?: string;
  signal?: AbortSignal;
  /** Each test as it ends (for progress notifications). */
  onTestEnd?: (result: TestResult, done: number, total: number) => void;
}

export interface RunTestsResult {
  summary: RunSummary & { notRun: number; total: number };
  results: TestResult[];
  /** The *.test.ts files' run under bun test, when paths named any. */
  bun?: BunTestRun;
  /** Titles of the tests the budget or a cancel left unstarted. */
  notRun: string[];
  report: string;
}

export const RUN_TESTS_DEFAULT_TIMEOUT_MS = 120_000;
export const RUN_TESTS_MAX_TIMEOUT_MS = 600_000;
const DEFAULT_TEST_TIMEOUT_MS = 30_000;
/** Rows of the failing screen and lines of a failure message in the report (the row diff, the missed wait). */
const REPORT_SCREEN_ROWS = 30;
const REPORT_MESSAGE_LINES = 40;

export async function runTests(options: RunTestsOptions, deps: ServerContext): Promise<RunTestsResult> {
  const started = performance.now();
  const cwd = options.cwd ?? deps.cwd;
  const budget = Math.min(options.timeoutMs ?? RUN_TESTS_DEFAULT_TIMEOUT_MS, RUN_TESTS_MAX_TIMEOUT_MS);
  const deadline = started + budget;
  const paths = options.paths ?? [];
  const others = paths.filter((path) => !BUN_TEST_FILE.test(path));
  // bun tests: the files named, and those on the library in the folders named
  const bunFiles = [...paths.filter((path) => BUN_TEST_FILE.test(path)), ...(await findBunTests(others, cwd))];
  const tests =
    bunFiles.length > 0 && others.length === 0
      ? []
      : await selectTests({ ...options, paths: others }, cwd, bunFiles.length > 0);
  const results: TestResult[] = [];
  const notRun: string[] = [];
  const room = Math.max(1, deps.config.maxSessions - deps.sessions.live().length);
  const workers = Math.max(1, Math.min(options.workers ?? 2, room, tests.length));
  const update = options.update ? "all" : options.ci ? "none" : "missing";
  let next = 0;
  const worker = async () => {
    while (next < tests.length) {
      const test = tests[next++]!;
      const left = deadline - performance.now();
      if (left < 100 || options.signal?.aborted) {
        notRun.push(test.title);
        continue;
      }
      const timeoutMs = Math.min(test.timeoutMs ?? options.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS, left);
      const result = await runTest({ ...test, timeoutMs }, { timeoutMs, retries: 0, update }, deps);
      results.push(result);
      options.onTestEnd?.(result, results.length, tests.length);
    }
  };
  await Promise.all(Array.from({ length: workers }, worker));
  const order = new Map(tests.map((t, i) => [t.title, i]));
  results.sort((a, b) => order.get(a.title)! - order.get(b.title)!);
  const bun =
    bunFiles.length > 0
      ? await runBunTests(bunFiles, {
          cwd,
          update: options.update === true,
          grep: options.grep,
          timeoutMs: Math.max(1000, deadline - performance.now()),
          signal: options.signal,
        })
      : undefined;
  const own = summarize(results, Math.round(performance.now() - started));
  const summary = {
    ...own,
    passed: own.passed + (bun?.passed ?? 0),
    failed: own.failed + (bun?.failed ?? 0),
    notRun: notRun.length,
    total: tests.length + (bun ? bun.passed + bun.failed : 0),
  };
  let report = textReport(summary, results, notRun, options.maxFailures ?? 5, budget);
  if (bun) report += bunReport(bun, Math.max(0, (options.maxFailures ?? 5) - own.failed));
  return { summary, results, notRun, report, ...(bun ? { bun } : {}) };
}

/** bun test's failures, after the runner's: what bun printed for each (the matcher's row diff, the missed wait). */
function bunReport(run: BunTestRun, maxFailures: number): string {
  const out: string[] = [];
  if (run.error) out.push("", `bun test could not run the files:\n${run.error}`);
  if (run.timedOut) out.push("", "bun test was stopped: the time budget ran out.");
  for (const failure of run.failures.slice(0, maxFailures)) out.push("", `FAILED ${failure.title}:`, failure.text);
  const rest = run.failures.length - Math.min(maxFailures, run.failures.length);
  if (rest > 0) out.push("", `${rest} more failed under bun test.`);
  return out.join("\n");
}

async function selectTests(options: RunTestsOptions, cwd: string, bunTestsToo = false): Promise<TestCase[]> {
  let grep: RegExp | undefined;
  try {
    grep = options.grep ? new RegExp(options.grep) : undefined;
  } catch (error) {
    throw new TuiError("INVALID_REGEX", `grep: ${(error as Error).message}`, 'Pass a RegExp source, e.g. "htop|vim".');
  }
  let files: string[];
  try {
    files = await discoverTestFiles(options.paths ?? [], cwd);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    // folders of bun tests only: nothing for this runner, bun test runs them
    if (bunTestsToo && error.message.startsWith("No test files")) return [];
    throw new TuiError(
      "INVALID_ARGUMENT",
      error.message,
      "Pass test files (*.tui.json, *.tui.yaml) or folders holding them.",
    );
  }
  const loaded = await loadTests(files, cwd);
  if (loaded.problems.length > 0)
    throw new TuiError(
      "INVALID_ARGUMENT",
      `${loaded.problems.length} problem(s) in the test files; nothing was run.\n${loaded.problems.slice(0, 10).join("\n\n")}`,
      "Fix the files as each problem says.",
    );
  const chosen = grep ? loaded.tests.filter((t) => grep.test(t.title)) : loaded.tests;
  if (chosen.length === 0)
    throw new TuiError(
      "INVALID_ARGUMENT",
      `No test title matches grep "${options.grep}" (${loaded.tests.length} test(s) found).`,
      `Titles look like "${loaded.tests[0]?.title ?? "file.tui.json › name"}".`,
    );
  return repeatTests(shardTests(chosen, options.shard), Math.max(1, options.repeat ?? 1));
}

/** Counts, then per failure: the test, the failing step, its message (row diff, missed wait) and the screen. */
export function textReport(
  summary: RunTestsResult["summary"],
  results: TestResult[],
  notRun: string[],
  maxFailures: number,
  budgetMs: number,
): string {
  const counts = [`${summary.passed} passed`, `${summary.failed} failed`];
  if (summary.flaky) counts.push(`${summary.flaky} flaky`);
  if (summary.skipped) counts.push(`${summary.skipped} skipped`);
  if (notRun.length) counts.push(`${notRun.length} not run (the ${formatDuration(budgetMs)} budget ran out)`);
  const written = results.flatMap((r) => r.snapshots).filter((n) => n.status === "written" || n.status === "updated");
  const goldens = written.length ? `; ${written.length} golden(s) written` : "";
  const out = [`${counts.join(", ")} of ${summary.total} test(s) in ${formatDuration(summary.durationMs)}${goldens}`];
  const failed = results.filter((r) => r.status === "failed");
  for (const result of failed.slice(0, maxFailures)) out.push("", failureText(result));
  if (failed.length > maxFailures)
    out.push(
      "",
      `${failed.length - maxFailures} more failed: ${failed
        .slice(maxFailures, maxFailures + 20)
        .map((r) => r.title)
        .join("; ")}`,
    );
  if (notRun.length) out.push("", `not run: ${notRun.slice(0, 20).join("; ")}${notRun.length > 20 ? "; ..." : ""}`);
  return out.join("\n");
}

function failureText(result: TestResult): string {
  const f = result.failure!;
  const where =
    f.step !== undefined
      ? `step ${f.step} (${f.stepType}${f.stepLabel ? ` "${f.stepLabel}"` : ""})`
      : f.timedOut
        ? "timed out"
        : "did not start";
  const lines = f.message.split("\n");
  const message = lines.slice(0, REPORT_MESSAGE_LINES);
  if (lines.length > REPORT_MESSAGE_LINES) message.push(`(${lines.length - REPORT_MESSAGE_LINES} more line(s))`);
  const out = [`FAILED ${result.title}: ${where}: ${message[0]}`, ...message.slice(1).map((l) => `  ${l}`)];
  // the runner's hints name its command-line flags; here the same switch is run_tests' update argument
  if (f.hint) out.push(`  Fix: ${f.hint.replace(/rerun with --update-snapshots/g, "run again with update: true")}`);
  const passedSteps = result.steps.filter((s) => s.ok).length;
  if (result.stepsPlanned > 0) out.push(`  ${passedSteps} of ${result.stepsPlanned} step(s) passed before it`);
  if (result.screen) {
    const screen = { ...result.screen, lines: result.screen.lines.slice(0, REPORT_SCREEN_ROWS) };
    out.push(screenBlock(screen));
  }
  return out.join("\n");
}
