/**
 * runTests(): test files (*.tui.json, *.tui.yaml) run from a script, by `tui-tester test` itself in a
 * child process (the runner stands above the library: it runs the MCP tools' run_script), bounded
 * in time. Returns its JSON report's counts and results, and its text report.
 */
import { join } from "node:path";
import { TuiError } from "../errors.ts";

export interface RunTestsOptions {
  /** Files, folders or globs; default the working directory. */
  paths?: string[];
  /** Only tests whose title ("file › name") matches this RegExp source. */
  grep?: string;
  /** Rewrite every golden from the screen. */
  update?: boolean;
  /** A missing golden fails instead of being written (default: when CI is set). */
  ci?: boolean;
  repeat?: number;
  shard?: { index: number; total: number };
  /** The whole run; the runner is killed past it. Default 120000. */
  timeoutMs?: number;
  cwd?: string;
}

export interface RunTestsResult {
  summary: { passed: number; failed: number; flaky: number; skipped: number; durationMs: number };
  /** Every test's title, status, failure (step, message) and the screen at a failure. */
  results: Record<string, unknown>[];
  /** The runner's report as a person reads it: each failure's steps, message and screen, then the counts. */
  report: string;
  exitCode: number;
}

const MAIN = join(import.meta.dir, "..", "main.ts");
const MAX_REPORT_CHARS = 256 * 1024;

export async function runTests(options: RunTestsOptions = {}): Promise<RunTestsResult> {
  const args = ["test", "--json", ...(options.paths ?? [])];
  if (options.grep) args.push("--filter", options.grep);
  if (options.update) args.push("--update-snapshots");
  if (options.ci ?? process.env.CI !== undefined) args.push("--ci");
  if (options.repeat) args.push("--repeat", String(options.repeat));
  if (options.shard) args.push("--shard", `${options.shard.index}/${options.shard.total}`);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  env.NO_COLOR = "1";
  const child = Bun.spawn([process.execPath, MAIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let timedOut = false;
  const timeoutMs = options.timeoutMs ?? 120_000;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGTERM");
  }, timeoutMs);
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  const report = stderr.length > MAX_REPORT_CHARS ? `...${stderr.slice(-MAX_REPORT_CHARS)}` : stderr;
  if (timedOut)
    throw new TuiError(
      "WAIT_TIMEOUT",
      `The test run did not finish within ${timeoutMs} ms.\n${report.slice(-4000)}`,
      "Raise timeoutMs.",
    );
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(stdout);
  } catch {
    // a usage error or a bad test file: nothing ran, the runner said why
    throw new TuiError(
      "INVALID_ARGUMENT",
      report.trim().slice(0, 8000) || "The runner wrote no report.",
      "Fix the paths or test files.",
    );
  }
  const pick = (key: string) => Number(json[key] ?? 0);
  return {
    summary: {
      passed: pick("passed"),
      failed: pick("failed"),
      flaky: pick("flaky"),
      skipped: pick("skipped"),
      durationMs: pick("durationMs"),
    },
    results: (json.tests as Record<string, unknown>[]) ?? [],
    report: report.trim(),
    exitCode,
  };
}
