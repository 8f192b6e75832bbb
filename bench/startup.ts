#!/usr/bin/env bun
/**
 * Start-up of the compiled binary (issue 14): spawn → initialize reply, the wait an MCP host has
 * before its first tool call. Builds the host target into a temp dir (or takes a path), then runs it
 * N times: spawn, write `initialize` on stdin, stop the clock at the reply line on stdout.
 *
 *   bun bench/startup.ts                      # build, 30 runs
 *   bun bench/startup.ts --runs 50 ./dist/tui-tester-linux-x64
 *   bun bench/startup.ts --source             # `bun src/main.ts` instead, for comparison
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTarget, hostTarget } from "../build.ts";

const argv = process.argv.slice(2);
const runsAt = argv.indexOf("--runs");
const RUNS = runsAt >= 0 ? Number(argv[runsAt + 1]) : 30;
const given = argv.filter((a, i) => !a.startsWith("--") && argv[i - 1] !== "--runs");

const INITIALIZE = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "startup-bench", version: "0" } },
})}\n`;

/**
 * Milliseconds from spawn to the first complete line on stdout (the initialize reply), and the
 * process's CPU time (user + system, whole life: start-up, the reply, exit on stdin end), which a
 * loaded machine inflates far less than the wall time.
 */
async function once(cmd: string[]): Promise<{ ms: number; cpuMs: number }> {
  const t0 = performance.now();
  const child = Bun.spawn(cmd, {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
    env: { ...process.env, TUI_TESTER_LOG: "silent" },
  });
  child.stdin.write(INITIALIZE);
  child.stdin.flush();
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    text += decoder.decode(chunk, { stream: true });
    if (text.includes("\n")) break;
  }
  const ms = performance.now() - t0;
  if (!text.includes('"serverInfo"')) throw new Error(`no initialize reply: ${text.slice(0, 200)}`);
  child.stdin.end();
  await child.exited;
  const usage = child.resourceUsage();
  const cpuMs = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1000 : NaN;
  return { ms, cpuMs };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

let dir = "";
const cmds: string[][] = given.map((path) => [path]);
if (argv.includes("--source")) cmds.push([process.execPath, join(import.meta.dir, "..", "src", "main.ts")]);
if (cmds.length === 0) {
  const target = hostTarget();
  if (!target) throw new Error(`no build target for ${process.platform}-${process.arch}`);
  dir = await mkdtemp(join(tmpdir(), "tui-tester-startup-"));
  cmds.push([(await buildTarget(target, dir)).outfile]);
}
try {
  // Interleaved, so load from other processes on the machine falls on every command alike.
  for (const cmd of cmds) await once(cmd); // warm the page cache
  const samples = cmds.map((): { ms: number; cpuMs: number }[] => []);
  for (let i = 0; i < RUNS; i++) for (const [k, cmd] of cmds.entries()) samples[k]!.push(await once(cmd));
  for (const [k, cmd] of cmds.entries()) {
    const s = samples[k]!.map((x) => x.ms).sort((a, b) => a - b);
    const p95 = s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)]!;
    const cpu = median(samples[k]!.map((x) => x.cpuMs));
    console.log(
      `${cmd.join(" ")}: spawn → initialize, ${RUNS} runs: median ${median(s).toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, min ${s[0]!.toFixed(1)} ms; CPU median ${cpu.toFixed(1)} ms`,
    );
  }
} finally {
  if (dir) await rm(dir, { recursive: true, force: true });
}
