/**
 * Waits after an input: what echo-awareness and frame finishing cost and change.
 *   bun bench/waits.ts [runs=20] [only cases whose name contains this]
 * Through the MCP tools (the in-process client of test/e2e/client.ts). Prints, per case, the p50/p95
 * of the wait's elapsedMs (when it matched), of frameMs (time spent letting the burst finish) and of
 * the whole call, client side.
 */
import { join } from "node:path";
import { connect } from "../test/e2e/client.ts";

const runs = Number(process.argv[2] ?? "20");
/** Only the cases whose name contains this. */
const only = process.argv[3] ?? "";
const c = await connect();
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : Number.NaN;
};
const row = (name: string, xs: Record<string, number[]>) =>
  console.log(
    `| ${name} | ${Object.entries(xs)
      .map(([k, v]) => `${k} ${pct(v, 50)} / ${pct(v, 95)}`)
      .join(" | ")} |`,
  );

async function bench(
  name: string,
  start: Record<string, unknown>,
  ready: string,
  text: string,
  waitFor: Record<string, unknown>,
) {
  if (!name.includes(only)) return;
  const { sessionId } = await c.ok("start_session", { cols: 80, rows: 24, ...start });
  await c.ok("wait_for_text", { sessionId, pattern: ready, timeoutMs: 15_000 });
  const elapsed: number[] = [];
  const frame: number[] = [];
  const call: number[] = [];
  let split = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const r = await c.ok("send_text", {
      sessionId,
      text: text.replaceAll("$i", String(i)),
      waitFor: {
        ...waitFor,
        pattern: String(waitFor.pattern)
          .replaceAll("$i", String(i))
          .replaceAll("$n", String(i + 1)),
      },
    });
    call.push(Math.round(performance.now() - t0));
    if (r.waitFor.matched) elapsed.push(r.waitFor.elapsedMs);
    if (r.waitFor.frameMs !== undefined) frame.push(r.waitFor.frameMs);
    if (r.screen.after.text.includes("F10Quit") && !r.screen.after.text.includes(`Display options ${i + 1}`)) split++;
    // back at the prompt before the next round
    await c.ok("wait_for_idle", { sessionId, timeoutMs: 5000 });
  }
  row(name, { "elapsedMs p50/p95": elapsed, "frameMs p50/p95": frame, "call ms p50/p95": call });
  if (split > 0) console.log(`  ${split} of ${runs} returned screens without the panel`);
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
}

const bash = { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ " } };
console.log(`runs per case: ${runs}`);
await bench("bash `sleep 0.3; echo FINISHED` (default)", bash, "$ ", "sleep 0.3; echo FINISHED$i\r", {
  pattern: "FINISHED$i",
});
await bench(
  "bash `sleep 0.3; echo FINISHED` (matchEcho: true, the earlier behaviour)",
  bash,
  "$ ",
  "sleep 0.3; echo FINISHED$i\r",
  { pattern: "FINISHED$i", matchEcho: true },
);
await bench("bash `echo X` (an answer at once)", bash, "$ ", "echo 'X''$i'\r", { pattern: "X$i" });
await bench(
  "python3 REPL `6*7`",
  { command: "python3", args: ["-q", "-i"], env: { PYTHONSTARTUP: "" } },
  ">>> ",
  "6*7+$i\r",
  { pattern: ">>> ", after: "input" },
);
const fixture = join(import.meta.dir, "..", "test", "fixtures", "split-frame.py");
await bench(
  "split-frame fixture, panel 20 ms after the bar",
  { command: "python3", args: [fixture, "20"] },
  "READY",
  "x",
  { pattern: "F10Quit $n" },
);
await c[Symbol.asyncDispose]();
