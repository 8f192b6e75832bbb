/**
 * The library's cost per input (issue 19): `bun bench/library.ts [rounds]`. Not part of `bun run bench`.
 *
 * Four ways to send one key to the redraw fixture and get its before/after/diff back, each on its
 * own session, interleaved round by round (A/B/C/D, the order turning) so load hits them alike:
 * - engine: session/observe-input.ts observeInput + lib/keyboard.ts sendKeys on a Session (what every face runs);
 * - library: Terminal.press (src/lib);
 * - tool: the send_keys tool through dispatch in this process (validate, run, render);
 * - MCP: send_keys over stdio to a server process (the SDK client, JSON-RPC, the transport).
 * Two modes: "send" (captureScreen: false: the input alone) and "observe" (waitFor the fixture's
 * next counter: before-screen, input, the app's redraw, after-screen, diff).
 * Overhead = the path's p50 minus the engine's p50 in the same run; target: library <= 1 ms.
 */
import { parseConfig } from "../src/config.ts";
import { parseKeys } from "../src/keys/index.ts";
import { describeKeys, sendKeys } from "../src/lib/keyboard.ts";
import { launch } from "../src/lib/launch.ts";
import { observeInput } from "../src/session/observe-input.ts";
import { SessionRegistry } from "../src/session/registry.ts";
import type { Session } from "../src/session/session.ts";
import { createServerContext } from "../src/tools/context.ts";
import { dispatch } from "../src/tools/dispatch.ts";
import { sendKeysTool } from "../src/tools/input-tools.ts";
import { setLogLevel } from "../src/util/log.ts";
import { connect } from "./client.ts";

setLogLevel("silent");

const ROUNDS = Number(process.argv[2] ?? 200);
const FIXTURE = new URL("../test/fixtures/redraw.ts", import.meta.url).pathname;
const start = { command: process.execPath, args: [FIXTURE], cols: 80, rows: 24, term: "xterm-256color" };

type Mode = "send" | "observe";
/** One input on one path; `count` is the fixture's counter the key makes it show. */
type Path = (mode: Mode, count: number) => Promise<unknown>;

const waitFor = (count: number) => ({
  pattern: `^count: ${count}$`,
  regex: true,
  regexFlags: "m",
  timeoutMs: 5000,
  pollIntervalMs: 50,
  matchScreen: true,
  errorOnTimeout: true,
});

async function ready(session: Session): Promise<void> {
  for (let i = 0; i < 500 && !session.emulator.text().includes("count: 0"); i++) await Bun.sleep(10);
}

const registry = new SessionRegistry(parseConfig({}));
const engineSession = await registry.start(start);
await ready(engineSession);
const specs = parseKeys("x");
const engine: Path = (mode, count) =>
  observeInput(
    engineSession,
    {
      captureScreen: mode === "observe",
      screenDetail: "full",
      ...(mode === "observe" ? { waitFor: waitFor(count) } : {}),
    },
    () => sendKeys(engineSession, specs),
    describeKeys,
  );

const terminal = await launch(process.execPath, { args: [FIXTURE] });
await ready(terminal.session);
const library: Path = (mode, count) =>
  terminal.press(
    "x",
    mode === "observe" ? { waitFor: { pattern: new RegExp(`^count: ${count}$`, "m") } } : { captureScreen: false },
  );

const ctx = createServerContext(parseConfig({ TUI_TESTER_LOG: "silent" }));
const toolSession = await ctx.sessions.start(start);
await ready(toolSession);
const signal = new AbortController().signal;
const tool: Path = async (mode, count) => {
  const args = {
    sessionId: toolSession.id,
    keys: "x",
    ...(mode === "observe" ? { waitFor: waitFor(count) } : { captureScreen: false }),
  };
  const result = await dispatch(sendKeysTool as never, args, { ...ctx, signal });
  if (result.isError) throw new Error(JSON.stringify(result.content));
};

const mcp = await connect();
const { sessionId } = await mcp.ok("start_session", start);
await mcp.ok("wait_for_text", { sessionId, pattern: "count: 0" });
const overMcp: Path = (mode, count) =>
  mcp.ok("send_keys", {
    sessionId,
    keys: "x",
    ...(mode === "observe" ? { waitFor: waitFor(count) } : { captureScreen: false }),
  });

const paths: [string, Path][] = [
  ["engine", engine],
  ["library", library],
  ["tool", tool],
  ["MCP", overMcp],
];
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.95 * xs.length) - 1]!;

const results: Record<string, Record<string, { p50: number; p95: number }>> = {};
const counts = new Map<string, number>(paths.map(([name]) => [name, 0]));
// "observe" first: each of its inputs waits for its own redraw, so the counters stay exact; "send"
// inputs can reach the fixture in one read (one redraw for two keys), so they come last.
for (const mode of ["observe", "send"] as Mode[]) {
  const samples = new Map<string, number[]>(paths.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS + 10; round++) {
    // The order turns each round, so no path always follows the same one.
    for (const [name, path] of paths.map((_, i) => paths[(i + round) % paths.length]!)) {
      const count = counts.get(name)! + 1;
      counts.set(name, count);
      const t0 = performance.now();
      await path(mode, count);
      const took = performance.now() - t0;
      if (round >= 10) samples.get(name)!.push(took); // the first rounds warm the JIT up
    }
  }
  results[mode] = Object.fromEntries([...samples].map(([name, xs]) => [name, { p50: median(xs), p95: p95(xs) }]));
}

await terminal.close();
await registry.shutdown(200);
await ctx.close();
await mcp.close();

const fmt = (n: number) => n.toFixed(3);
console.log(`${ROUNDS} rounds per path and mode, interleaved; ms per input (p50 / p95); overhead = p50 - engine p50`);
for (const [mode, byPath] of Object.entries(results)) {
  const base = byPath.engine!.p50;
  for (const [name, r] of Object.entries(byPath)) {
    console.log(
      `${mode.padEnd(8)} ${name.padEnd(8)} ${fmt(r.p50).padStart(8)} / ${fmt(r.p95).padStart(8)}` +
        `   overhead ${fmt(r.p50 - base).padStart(7)}`,
    );
  }
}
console.log(JSON.stringify(results));
