/** `tui-tester test` options: parsed strictly, so a typo is a usage error (exit 2), not a silent default. */
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";

export interface TestOptions {
  paths: string[];
  workers: number;
  timeoutMs: number;
  retries: number;
  filter?: RegExp;
  updateSnapshots: boolean;
  /** CI mode: a missing golden fails instead of being written. */
  ci: boolean;
  junit?: string;
  json: boolean;
  recordFailures: boolean;
  /** Where --record-failures puts its recordings. */
  outputDir: string;
  /** --reporter, repeatable: list (stderr, always on), html, junit, json. */
  reporters: Reporter[];
  reportDir: string;
  trace: "on" | "retain-on-failure" | "off";
  help: boolean;
  /** Run each test this many times (flake hunting). */
  repeat: number;
  /** This machine's part of the run: tests k with k mod total = index - 1. */
  shard?: { index: number; total: number };
}

export const REPORTERS = ["list", "html", "junit", "json"] as const;
export type Reporter = (typeof REPORTERS)[number];
const TRACES = ["on", "retain-on-failure", "off"] as const;

export class UsageError extends Error {}

export const TEST_HELP = `Usage: tui-tester test [options] [paths or globs...]

Runs test files (*.tui.json, *.tui.yaml): each test starts a session with start_session's
arguments and runs run_script steps in it. With no paths, finds **/*.tui.{json,yaml,yml} under
the current directory (node_modules and dot-directories skipped).

A file holds one test or a list of them:
  { "name": "echo works",
    "session": { "command": "bash", "args": ["--norc"], "env": { "PS1": "$ " } },
    "steps": [ { "type": "send_text", "text": "echo $((6*7))\\r", "waitFor": { "pattern": "42" } },
               { "type": "expect_snapshot", "name": "after-echo" } ] }
Optional per test: "defaults" (run_script defaults), "timeoutMs", "retries", "skip".
An inline waitFor that times out fails its step unless the step (or "defaults") says "optional": true.
assert_text waits until it holds (absent, with negate), up to its timeoutMs (else defaults.timeoutMs,
else 5000). expect_exit { code | signal } and expect_file { path, exists, contains, equals, golden }
check what the program left.
Sessions get TZ=UTC and LANG=C.UTF-8 unless "session.env" sets them. save_test writes such files.
The session's cwd defaults to the test file's directory (a relative cwd is resolved from there).
expect_snapshot goldens live in __snapshots__/<file name>/<name>.txt (or .ansi) beside the file,
expect_file goldens in the same directory under their own name.

Options:
  --workers, -j N          Tests run in parallel (default: CPU count, here ${defaultWorkers()}).
  --timeout MS             Time limit per test attempt (default 30000; a test's timeoutMs wins).
  --retries N              Run a failing test again up to N times (default 0); a pass on retry is "flaky".
  --filter REGEX           Run only tests whose "file › name" title matches.
  --update-snapshots, -u   Rewrite every golden the tests compare with the current screen.
  --ci                     Fail on a missing golden (or one no test uses) instead of writing it.
  --repeat N               Run each test N times (default 1), to hunt flaky tests.
  --shard I/N              Run only shard I of N (1-based), for CI machines that split a run.
  --junit FILE             Write a JUnit XML report.
  --json                   Print a JSON report on stdout.
  --record-failures        Keep an asciicast recording of each failed test attempt.
  --output-dir DIR         Where recordings go (default tui-test-results).
  --reporter NAME          list (progress on stderr, always on), html, junit, json; repeatable.
                           html writes DIR/index.html, one self-contained page (docs/reports.md);
                           junit writes --junit FILE or DIR/junit.xml; json prints on stdout.
  --report-dir DIR         Where the html report goes (default tui-tester-report).
  --trace MODE             What the html report keeps of each test (a recording, played in the page,
                           and the screen after every step): on, retain-on-failure (default), off.
  --help, -h               Show this help.

Progress and failure reports go to stderr. Exit code: 0 all passed, 1 a test failed,
2 usage error or invalid test file (nothing was run).
`;

export function defaultWorkers(): number {
  return Math.max(1, availableParallelism());
}

function integer(name: string, value: string | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value.slice(0, 40)}".`);
  return n;
}

export function parseTestArgs(argv: string[]): TestOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        workers: { type: "string", short: "j" },
        timeout: { type: "string" },
        retries: { type: "string" },
        filter: { type: "string" },
        "update-snapshots": { type: "boolean", short: "u" },
        ci: { type: "boolean" },
        junit: { type: "string" },
        json: { type: "boolean" },
        "record-failures": { type: "boolean" },
        "output-dir": { type: "string" },
        reporter: { type: "string", multiple: true },
        "report-dir": { type: "string" },
        trace: { type: "string" },
        help: { type: "boolean", short: "h" },
        repeat: { type: "string" },
        shard: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  let filter: RegExp | undefined;
  if (values.filter !== undefined) {
    try {
      filter = new RegExp(values.filter);
    } catch (error) {
      throw new UsageError(
        `--filter is not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
  if (values.ci && values["update-snapshots"])
    throw new UsageError("--ci and --update-snapshots contradict each other: --ci never writes goldens.");
  if (values.junit === "") throw new UsageError("--junit needs a file path.");
  const reporters = (values.reporter ?? []).flatMap((r) => r.split(","));
  const unknown = reporters.find((r) => !(REPORTERS as readonly string[]).includes(r));
  if (unknown !== undefined)
    throw new UsageError(`--reporter "${unknown.slice(0, 40)}" is not one of ${REPORTERS.join(", ")}.`);
  if (values.trace !== undefined && !(TRACES as readonly string[]).includes(values.trace))
    throw new UsageError(`--trace must be on, retain-on-failure or off, got "${values.trace.slice(0, 40)}".`);
  return {
    paths: positionals,
    workers: integer("workers", values.workers, 1, 256, defaultWorkers()),
    timeoutMs: integer("timeout", values.timeout, 100, 3_600_000, 30_000),
    retries: integer("retries", values.retries, 0, 10, 0),
    filter,
    updateSnapshots: values["update-snapshots"] === true,
    ci: values.ci === true,
    junit: values.junit,
    json: values.json === true,
    recordFailures: values["record-failures"] === true,
    outputDir: values["output-dir"] || "tui-test-results",
    reporters: [...new Set(["list", ...reporters] as Reporter[])],
    reportDir: values["report-dir"] || "tui-tester-report",
    trace: (values.trace ?? "retain-on-failure") as TestOptions["trace"],
    help: values.help === true,
    repeat: integer("repeat", values.repeat, 1, 1000, 1),
    ...(values.shard !== undefined ? { shard: parseShard(values.shard) } : {}),
  };
}

function parseShard(value: string): { index: number; total: number } {
  const m = /^(\d+)\/(\d+)$/.exec(value);
  const [index, total] = m ? [Number(m[1]), Number(m[2])] : [0, 0];
  if (!m || total < 1 || index < 1 || index > total)
    throw new UsageError(`--shard takes I/N with 1 <= I <= N, e.g. 2/4; got "${value.slice(0, 40)}".`);
  return { index, total };
}
