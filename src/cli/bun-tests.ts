/**
 * run_tests on bun test files (*.test.ts, what save_test { format: "ts" } writes): `bun test` in a
 * child process, in CI mode (a missing golden fails) or updating goldens, within the run's time
 * budget; its per-test lines and each failure's message become the same kind of report.
 */
import { readdir, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { TuiError } from "../errors.ts";

export interface BunTestRun {
  passed: number;
  failed: number;
  /** "file › title" of each failed test, with what bun printed for it (the matcher's row diff, the missed wait). */
  failures: { title: string; text: string }[];
  timedOut: boolean;
  /** Set when bun could not run the files at all (a syntax error, a missing import). */
  error?: string;
}

export const BUN_TEST_FILE = /[._](test|spec)\.[cm]?[jt]sx?$/;
/** Most bun test files a folder search collects. */
const MAX_FOUND = 500;

/**
 * The bun tests on the library under the given folders: *.test.ts files that import tui-tester (so a
 * project's other unit tests are not run), outside node_modules, dot-directories and __snapshots__.
 */
export async function findBunTests(paths: string[], cwd: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (found.length >= MAX_FOUND) return;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && entry.name !== "node_modules" && entry.name !== "__snapshots__")
          await walk(path);
      } else if (BUN_TEST_FILE.test(entry.name) && /from "tui-tester"/.test(await Bun.file(path).text()))
        found.push(path);
    }
  };
  for (const path of paths) {
    const absolute = resolve(cwd, path);
    if ((await stat(absolute).catch(() => null))?.isDirectory()) await walk(absolute);
  }
  return found.sort();
}
/** Lines of bun's output kept per failure (principle 9). */
const FAILURE_LINES = 60;
const MAX_OUTPUT_CHARS = 1024 * 1024;

/** The bun that runs the tests: this process when it is bun, else bun on PATH. */
function bunExecutable(): string {
  if (process.versions.bun && /(^|\/)bun(-\w+)?$/.test(process.execPath)) return process.execPath;
  const found = Bun.which("bun");
  if (found) return found;
  throw new TuiError(
    "INVALID_ARGUMENT",
    "Running *.test.ts files needs bun, and it is not on PATH.",
    "Install bun (https://bun.sh), or save the session as *.tui.json, which the server runs itself.",
  );
}

export async function runBunTests(
  files: string[],
  options: { cwd: string; update: boolean; grep?: string; timeoutMs: number; signal?: AbortSignal },
): Promise<BunTestRun> {
  const args = [bunExecutable(), "test", ...files, "--timeout", "60000"];
  if (options.update) args.push("--update-snapshots");
  if (options.grep) args.push("--test-name-pattern", options.grep);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  Object.assign(env, { NO_COLOR: "1", FORCE_COLOR: "0" });
  // CI mode makes a missing golden fail; with update the goldens are rewritten instead
  if (options.update) delete env.CI;
  else env.CI = "true";
  const child = Bun.spawn(args, { cwd: options.cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let timedOut = false;
  const kill = () => child.kill("SIGKILL");
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs);
  options.signal?.addEventListener("abort", kill, { once: true });
  const [stdout, stderr] = await Promise.all([bounded(child.stdout), bounded(child.stderr)]);
  await child.exited;
  clearTimeout(timer);
  options.signal?.removeEventListener("abort", kill);
  return parseBunOutput(`${stdout}\n${stderr}`, timedOut, child.exitCode ?? 1);
}

async function bounded(stream: ReadableStream<Uint8Array>): Promise<string> {
  const text = await new Response(stream).text();
  return text.length > MAX_OUTPUT_CHARS ? text.slice(-MAX_OUTPUT_CHARS) : text;
}

/** bun's reporter: "file.test.ts:" headers, "(pass) title", "(fail) title" with the failure printed above it. */
export function parseBunOutput(output: string, timedOut: boolean, exitCode: number): BunTestRun {
  const lines = output.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, "").split("\n");
  let passed = 0;
  let failed = 0;
  let file = "";
  let block: string[] = [];
  const failures: BunTestRun["failures"] = [];
  for (const line of lines) {
    const header = /^(\S.*\.[cm]?[jt]sx?):$/.exec(line);
    const result = /^\((pass|fail|skip|todo)\) (.*?)(?: \[[\d.]+m?s\])?$/.exec(line);
    if (header) {
      file = header[1]!;
      block = [];
    } else if (result) {
      if (result[1] === "pass") passed++;
      if (result[1] === "fail") {
        failed++;
        const text = trimBlock(block);
        failures.push({ title: `${file} › ${result[2]}`, text });
      }
      block = [];
    } else block.push(line);
  }
  const run: BunTestRun = { passed, failed, failures, timedOut };
  if (passed + failed === 0 && exitCode !== 0 && !timedOut) run.error = trimBlock(lines);
  return run;
}

/**
 * What a reader needs of bun's failure block: the error and its message, the test file's stack
 * frames; not bun's source excerpt of the library's matcher, its caret, nor the error's empty fields.
 */
function isNoise(line: string): boolean {
  return (
    /^\s*\d+ \| /.test(line) ||
    /^\s*\^\s*$/.test(line) ||
    /^\s*(hint|details|code): /.test(line) ||
    (/^\s+at /.test(line) && !BUN_TEST_FILE.test(line.replace(/:\d+(:\d+)?\)?$/, "")))
  );
}

function trimBlock(all: string[]): string {
  const lines = all
    .filter((line) => !isNoise(line))
    .map((line) => line.replace("run bun test --update-snapshots", "run again with update: true"));
  const kept = lines.filter((l, i) => l.trim() !== "" || (i > 0 && lines[i - 1]!.trim() !== ""));
  const shown = kept.slice(-FAILURE_LINES);
  return (kept.length > shown.length ? ["...", ...shown] : shown).join("\n").trim();
}
