#!/usr/bin/env bun
/**
 * Flake benchmark: the real-app tests in bench/flake/ (CLI test files and a bun test file of the
 * same programs, each written the natural way: an input's waitFor, then checks) run many times at
 * idle and many times beside a CPU hog on every core (child processes spinning), counting failures
 * per test. Then the htop F2/F10 pattern (`send_keys [F10] waitFor F2Setup`, then a negated
 * assert_text) runs --htop-runs times with 2 workers beside the hog.
 *
 *   bun run bench:flake                      --runs 100 --htop-runs 200
 *   bun run bench:flake --runs 20 --htop-runs 200 --phases idle,loaded
 *   bun run bench:flake --only cli,lib,holdout,htop
 *
 * Prints a table per phase and writes bench/flake-results.json. Exit code 1 when any run failed.
 */
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { processEnv, startCpuHogs } from "./helpers.ts";

const ROOT = join(import.meta.dir, "..");
const MAIN = join(ROOT, "src", "main.ts");
const CLI_DIR = join(import.meta.dir, "flake", "cli");
const LIB_DIR = join(import.meta.dir, "flake", "lib");
/** Written once and never used to tune the engine: reported apart. */
const HOLDOUT_DIR = join(import.meta.dir, "flake", "holdout");

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: {
    runs: { type: "string", default: "100" },
    "htop-runs": { type: "string", default: "200" },
    workers: { type: "string", default: "2" },
    phases: { type: "string", default: "idle,loaded" },
    only: { type: "string" },
  },
});
const runs = Number(values.runs);
const htopRuns = Number(values["htop-runs"]);
const workers = Number(values.workers);
const phases = values.phases!.split(",") as ("idle" | "loaded")[];
const parts = values.only ? values.only.split(",") : ["cli", "lib", "holdout", "htop"];

interface Tally {
  runs: number;
  failures: number;
  /** The first failure's message, for the report. */
  first?: string;
}
type Counts = Record<string, Tally>;

function count(counts: Counts, name: string, failed: boolean, message?: string): void {
  const tally = (counts[name] ??= { runs: 0, failures: 0 });
  tally.runs++;
  if (failed) {
    tally.failures++;
    tally.first ??= message?.split("\n")[0]?.slice(0, 300);
  }
}

/** Run a command from the repository's root, quiet and uncoloured; its whole output once it ends. */
async function runCaptured(cmd: string[]): Promise<{ stdout: string; stderr: string }> {
  const proc = Bun.spawn(cmd, {
    cwd: ROOT,
    env: processEnv({ NO_COLOR: "1", TUI_TESTER_LOG: "silent" }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  return { stdout, stderr };
}

/** `tui-tester test` on the CLI files, once per run; per test, the runs and failures. */
async function cliRuns(counts: Counts, n: number, dir = CLI_DIR, extra: string[] = []): Promise<void> {
  for (let i = 0; i < n; i++) {
    const { stdout, stderr } = await runCaptured([
      process.execPath,
      MAIN,
      "test",
      dir,
      "--workers",
      String(workers),
      "--json",
      ...extra,
    ]);
    let report: { tests: { name: string; status: string; failure?: { message: string } }[] };
    try {
      report = JSON.parse(stdout);
    } catch {
      count(counts, "(the CLI run itself)", true, stderr.slice(-300));
      continue;
    }
    for (const t of report.tests) {
      if (t.status === "skipped") continue;
      count(counts, t.name.replace(/ \[run \d+\/\d+\]$/, ""), t.status !== "passed", t.failure?.message);
    }
    progress(`cli ${i + 1}/${n}`);
  }
}

/** bun test on the library file with --rerun-each n; per test, the runs and failures. */
async function libRuns(counts: Counts, n: number): Promise<void> {
  const { stdout, stderr } = await runCaptured([
    process.execPath,
    "test",
    "--timeout",
    "30000",
    "--rerun-each",
    String(n),
    LIB_DIR,
  ]);
  const lines = `${stdout}\n${stderr}`.split("\n");
  let lastError = "";
  for (const line of lines) {
    // bun repeats the failed tests' lines in a summary at the end: count each run once
    if (/^\d+ tests? failed:$/.test(line.trim())) break;
    if (/^(error:|\w*Error: )/.test(line) && lastError === "") lastError = line;
    const m = /^\((pass|fail)\) (.+?) \[[\d.]+m?s\]$/.exec(line);
    if (m) {
      count(counts, m[2]!, m[1] === "fail", lastError);
      lastError = "";
    }
  }
}

let lastProgress = 0;
function progress(text: string): void {
  if (performance.now() - lastProgress < 2000) return;
  lastProgress = performance.now();
  process.stderr.write(`  ${text}\n`);
}

function table(title: string, counts: Counts): string {
  const rows = Object.entries(counts).map(
    ([name, t]) => `| ${name} | ${t.runs} | ${t.failures} | ${t.first ? t.first.replace(/\|/g, "\\|") : ""} |`,
  );
  return [`### ${title}`, "", "| test | runs | failures | first failure |", "|---|---|---|---|", ...rows, ""].join(
    "\n",
  );
}

const results: Record<string, Counts> = {};
const started = performance.now();
/** The load average as one string ("12.81 10.13 6.53"): the machine is shared, so every figure says what else ran. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");
const machine = { cores: cpus().length, loadBefore: load() };
for (const phase of phases) {
  // one spinning child process per core: the load beside which the tests must not flake
  const stopHog = phase === "loaded" ? startCpuHogs() : () => undefined;
  try {
    if (parts.includes("cli")) {
      process.stderr.write(`${phase}: CLI files x ${runs}\n`);
      await cliRuns((results[`cli, ${phase}`] = {}), runs);
    }
    if (parts.includes("holdout")) {
      process.stderr.write(`${phase}: held-out CLI files x ${runs}\n`);
      await cliRuns((results[`held out, cli, ${phase}`] = {}), runs, HOLDOUT_DIR);
    }
    if (parts.includes("lib")) {
      process.stderr.write(`${phase}: library file x ${runs}\n`);
      await libRuns((results[`library, ${phase}`] = {}), runs);
    }
  } finally {
    stopHog();
  }
}
if (parts.includes("htop") && Bun.which("htop")) {
  process.stderr.write(`htop F2/F10 pattern x ${htopRuns}, ${workers} workers, beside a CPU hog\n`);
  const stopHog = startCpuHogs();
  try {
    await cliRuns((results["htop pattern, loaded"] = {}), 1, CLI_DIR, [
      "--filter",
      "htop F2 Setup then F10 back",
      "--repeat",
      String(htopRuns),
    ]);
  } finally {
    stopHog();
  }
}
const summary = {
  date: new Date().toISOString(),
  runs,
  htopRuns,
  workers,
  machine: { ...machine, loadAfter: load() },
  durationS: Math.round((performance.now() - started) / 1000),
  results,
};
console.log(
  Object.entries(results)
    .map(([title, counts]) => table(title, counts))
    .join("\n"),
);
console.log(
  `machine: ${machine.cores} cores, load average ${machine.loadBefore} before, ${summary.machine.loadAfter} after; ${summary.durationS} s`,
);
await Bun.write(join(import.meta.dir, "flake-results.json"), `${JSON.stringify(summary, null, 2)}\n`);
const failures = Object.values(results)
  .flatMap((c) => Object.values(c))
  .reduce((n, t) => n + t.failures, 0);
process.exit(failures > 0 ? 1 : 0);
