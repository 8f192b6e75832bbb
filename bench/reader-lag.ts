#!/usr/bin/env bun
/**
 * How long a program's terminal output takes to reach the emulator: a python program writes its
 * wall-clock time in ns every 3 ms; each line's lag is its arrival (performance.timeOrigin + now(), the
 * same clock to a fraction of a ms) minus that time. This is the delay the ready oracle's drain grace (src/session/ready/settle.ts) must cover when it
 * cannot count the bytes. Idle, then beside a busy loop on each core, then beside two on each core.
 *   bun bench/reader-lag.ts [--seconds=N]
 */
import { loadavg } from "node:os";
import { DEFAULT_CONFIG } from "../src/config.ts";
import { SessionRegistry } from "../src/session/registry.ts";
import { percentile, startCpuHogs, startProgram } from "./helpers.ts";

const seconds = Number(process.argv.find((a) => a.startsWith("--seconds="))?.slice(10) ?? 10);
const cores = navigator.hardwareConcurrency;
const PROGRAM =
  "import time,sys\n" +
  `end=time.monotonic()+${seconds}\n` +
  "while time.monotonic()<end:\n" +
  " sys.stdout.write('T%d\\n' % time.time_ns()); sys.stdout.flush(); time.sleep(0.003)\n" +
  "sys.stdout.write('END\\n')\n";

async function measure(registry: SessionRegistry): Promise<number[]> {
  const session = await startProgram(registry, { command: "python3", args: ["-c", PROGRAM] });
  const lags: number[] = [];
  let text = "";
  const done = Promise.withResolvers<void>();
  session.onOutput((chunk) => {
    const now = performance.timeOrigin + performance.now();
    text += Buffer.from(chunk).toString("latin1");
    const lines = text.split("\n");
    text = lines.pop()!;
    for (const line of lines) {
      const m = /T(\d+)/.exec(line);
      if (m) lags.push(now - Number(m[1]!) / 1e6);
      if (line.includes("END")) done.resolve();
    }
  });
  await Promise.race([done.promise, session.whenExited()]);
  await registry.stop(session.id, "SIGKILL", 0);
  return lags;
}

const registry = new SessionRegistry(DEFAULT_CONFIG);
console.log(`| pass | lines | lag p50 / p99 / p99.9 / max ms | load average |`);
console.log("|---|---:|---|---|");
for (const perCore of [0, 1, 2]) {
  const stopHogs = perCore > 0 ? startCpuHogs(perCore * cores) : undefined;
  const lags = await measure(registry);
  const load = loadavg()[0]!.toFixed(1);
  stopHogs?.();
  const f = (p: number) => percentile(lags, p).toFixed(1);
  const name = perCore === 0 ? "idle" : `${perCore} busy loop(s) per core`;
  console.log(
    `| ${name} | ${lags.length} | ${f(0.5)} / ${f(0.99)} / ${f(0.999)} / ${Math.max(...lags).toFixed(1)} | ${load} |`,
  );
}
await registry.shutdown(200);
process.exit(0);
