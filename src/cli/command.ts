/**
 * `tui-tester test`: find the test files, check them all, run the tests on a pool of workers,
 * report on stderr (and JUnit / JSON when asked). Returns the exit code and what belongs on
 * stdout; main.ts writes it, as it owns stdout.
 */
import { relative } from "node:path";
import { type Config, VERSION } from "../config.ts";
import { createServerContext } from "../tools/context.ts";
import { parseTestArgs, TEST_HELP, UsageError, type TestOptions } from "./args.ts";
import { discoverTestFiles } from "./discover.ts";
import { loadTests, type TestCase } from "./load.ts";
import { obsoleteGoldens } from "./obsolete.ts";
import { Progress } from "./progress.ts";
import { repeatTests, shardTests } from "./shard.ts";
import { failureReport, summarize, summaryLine } from "./report.ts";
import { testRecorder, writeReports } from "./reporters.ts";
import { runTest, type RunOptions, type TestResult } from "./run-test.ts";

export interface CommandResult {
  code: number;
  stdout: string;
}

const err = (text: string) => void process.stderr.write(text);

/** `config`: the parsed settings (main.ts checked them); the test runner's screens default to diffs. */
export async function testCommand(argv: string[], config: Config): Promise<CommandResult> {
  let options: TestOptions;
  let tests: TestCase[];
  let fileCount: number;
  let obsolete: string[];
  try {
    options = parseTestArgs(argv);
    if (options.help) return { code: 0, stdout: TEST_HELP };
    const files = await discoverTestFiles(options.paths);
    fileCount = files.length;
    const loaded = await loadTests(files);
    if (loaded.problems.length > 0) {
      err(
        `tui-tester test: ${loaded.problems.length} problem(s) in the test files; ` +
          `nothing was run.\n\n${loaded.problems.join("\n\n")}\n`,
      );
      return { code: 2, stdout: "" };
    }
    tests = options.filter ? loaded.tests.filter((t) => options.filter!.test(t.title)) : loaded.tests;
    if (tests.length === 0)
      throw new UsageError(`No test title matches --filter ${options.filter} (${loaded.tests.length} test(s) found).`);
    obsolete = await obsoleteGoldens(files, loaded.tests);
    tests = repeatTests(shardTests(tests, options.shard), options.repeat);
    if (tests.length === 0) {
      err(
        `tui-tester test: shard ${options.shard!.index}/${options.shard!.total} has no ` +
          `tests (${loaded.tests.length} in all).\n`,
      );
      return { code: 0, stdout: "" };
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`tui-tester test: ${error.message}\nRun "tui-tester test --help" for usage.\n`);
    return { code: 2, stdout: "" };
  }
  return run(tests, fileCount, options, config, obsolete);
}

async function run(
  tests: TestCase[],
  fileCount: number,
  options: TestOptions,
  config: Config,
  obsolete: string[],
): Promise<CommandResult> {
  const started = performance.now();
  const deps = createServerContext({ ...config, screenDetail: "diff" });
  const workers = Math.min(options.workers, tests.length, config.maxSessions);
  const recorder = testRecorder(options);
  const runOptions: RunOptions = {
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    update: options.updateSnapshots ? "all" : options.ci ? "none" : "missing",
    ...(recorder ? { recorder } : {}),
  };
  const progress = new Progress(tests.length);
  const p = progress.colours;
  const shardNote = options.shard ? `, shard ${options.shard.index}/${options.shard.total}` : "";
  const repeatNote = options.repeat > 1 ? `, each run ${options.repeat} times` : "";
  progress.line(
    `tui-tester ${VERSION}: ${tests.length} test(s) from ${fileCount} ` +
      `file(s)${shardNote}${repeatNote}, ${workers} ` +
      `worker(s)${options.updateSnapshots ? ", updating snapshots" : ""}`,
  );

  // Ctrl-C or a CI cancel: stop every session (no orphans) and exit as interrupted.
  const interrupted = async (signal: NodeJS.Signals) => {
    progress.stop();
    err(`\ntui-tester test: ${signal}, stopping all sessions\n`);
    await deps.close();
    process.exit(130);
  };
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const handlers = signals.map((s) => [s, () => void interrupted(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);

  const results: TestResult[] = new Array(tests.length);
  let next = 0;
  const worker = async () => {
    while (next < tests.length) {
      const index = next++;
      const test = tests[index]!;
      progress.started(test.title);
      const maxAttempts = 1 + (test.retries ?? options.retries);
      results[index] = await runTest(test, runOptions, deps, (attempt, failure) =>
        progress.retrying(test.title, attempt, maxAttempts, failure),
      );
      progress.finishedTest(results[index]!);
    }
  };
  try {
    await Promise.all(Array.from({ length: workers }, worker));
  } finally {
    progress.stop();
    for (const [s, h] of handlers) process.off(s, h);
    await deps.close();
  }

  const summary = summarize(results, Math.round(performance.now() - started));
  const failed = results.filter((r) => r.status === "failed");
  if (failed.length > 0) err(`\n${failed.map((r) => failureReport(r, p)).join("\n\n")}\n`);
  err(`\n${summaryLine(summary, results, p)}\n`);
  if (obsolete.length > 0) {
    const shown = obsolete
      .slice(0, 20)
      .map((file) => `  ${relative(process.cwd(), file)}`)
      .join("\n");
    err(
      p.yellow(
        `${obsolete.length} golden(s) no test ` +
          `uses${options.ci ? " (--ci fails on them)" : ""}; delete them or name them in ` +
          `an expect_snapshot:\n${shown}${obsolete.length > 20 ? "\n  ..." : ""}\n`,
      ),
    );
  }
  const stdout = await writeReports(options, tests, results, summary, workers, p);
  const code = failed.length > 0 || (options.ci && obsolete.length > 0) ? 1 : 0;
  return { code, stdout };
}
