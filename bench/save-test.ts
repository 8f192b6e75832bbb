#!/usr/bin/env bun
/**
 * save_test rerun pass rate (issue 20): each of the eight real-app scenarios of the test tier
 * (test/apps/save-scenarios.ts) is driven once over MCP like an agent, saved with save_test, and the
 * saved test is rerun N times (default 20) with `tui-tester test --repeat N --workers 2`.
 *
 *   bun bench/save-test.ts                 # all scenarios, 20 reruns each
 *   bun bench/save-test.ts --reruns 5 vim  # fewer reruns, scenarios whose name contains "vim"
 *   bun bench/save-test.ts --more          # the seven further programs (save-scenarios-more.ts); --all: both
 *
 * Prints one row per scenario (passed/reruns, wall time of the rerun batch) and a JSON blob.
 * Scenarios whose program is not installed are listed as skipped.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "../test/e2e/client.ts";
import { prepare, SCENARIOS } from "../test/apps/save-scenarios.ts";
import { MORE_SCENARIOS } from "../test/apps/save-scenarios-more.ts";

const argv = process.argv.slice(2);
const at = argv.indexOf("--reruns");
const reruns = at >= 0 ? Number(argv[at + 1]) : 20;
const filters = argv.filter((a, i) => !a.startsWith("--") && (at < 0 || i !== at + 1));
// --more: the seven programs beyond the first eight (tmux, fish, zsh, lf, gdu, a dialog checklist, vim visual mode)
const scenarios = argv.includes("--more")
  ? MORE_SCENARIOS
  : argv.includes("--all")
    ? [...SCENARIOS, ...MORE_SCENARIOS]
    : SCENARIOS;
const MAIN = join(import.meta.dir, "..", "src", "main.ts");

interface Row {
  scenario: string;
  app: string;
  passed?: number;
  reruns: number;
  rerunWallMs?: number;
  skipped?: string;
  steps?: number;
}

const rows: Row[] = [];
const wall = (ms: number | undefined) => (ms === undefined ? "-" : `${(ms / 1000).toFixed(1)} s`);
await using client = await connect({ env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
for (const scenario of scenarios.filter((s) => filters.length === 0 || filters.some((f) => s.name.includes(f)))) {
  if (Bun.which(scenario.app) === null) {
    rows.push({ scenario: scenario.name, app: scenario.app, reruns, skipped: `${scenario.app} not installed` });
    continue;
  }
  const dir = mkdtempSync(join(tmpdir(), `bench-save-${scenario.name}-`));
  try {
    const { appDir, testsDir } = prepare(dir, scenario.files);
    const sessionId = await scenario.drive(client, appDir);
    const saved = await client.ok("save_test", {
      sessionId,
      path: join(testsDir, `${scenario.name}.tui.json`),
      snapshots: scenario.snapshots ?? "end",
    });
    await client.call("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
    const started = performance.now();
    const run = Bun.spawnSync(
      [
        process.execPath,
        MAIN,
        "test",
        "--repeat",
        String(reruns),
        "--workers",
        "2",
        "--ci",
        "--json",
        "--timeout",
        "30000",
      ],
      { cwd: testsDir, env: { ...process.env, NO_COLOR: "1" } },
    );
    const report = JSON.parse(run.stdout.toString() || "{}");
    rows.push({
      scenario: scenario.name,
      app: scenario.app,
      passed: report.passed ?? 0,
      reruns,
      rerunWallMs: Math.round(performance.now() - started),
      steps: saved.steps,
    });
    process.stderr.write(`${scenario.name}: ${report.passed ?? 0}/${reruns}\n`);
    if ((report.passed ?? 0) < reruns) process.stderr.write(`${run.stderr.toString().slice(-3000)}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log("| scenario | app | steps | passed | rerun batch wall time |");
console.log("|---|---|---|---|---|");
for (const r of rows) {
  const passed = r.skipped ?? `${r.passed}/${r.reruns}`;
  console.log(`| ${r.scenario} | ${r.app} | ${r.steps ?? "-"} | ${passed} | ${wall(r.rerunWallMs)} |`);
}
console.log(JSON.stringify({ reruns, workers: 2, rows }, null, 2));
