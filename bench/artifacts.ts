#!/usr/bin/env bun
/**
 * Artifact benchmarks (issue 12): screenshot size and render time, recording overhead on a flood
 * of output, and web viewer latency (output reaching a viewer tab). Over MCP stdio like a host.
 *
 *   bun bench/artifacts.ts            # prints a table and JSON
 *   bun bench/artifacts.ts --quick    # fewer iterations
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type BenchClient } from "./client.ts";

const QUICK = process.argv.includes("--quick");
const ROOT = join(import.meta.dir, "..");
const dir = mkdtempSync(join(tmpdir(), "tui-tester-bench-artifacts-"));
const rows: { name: string; value: string; note?: string }[] = [];
const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(xs.length * 0.95) - 1)]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function screen(c: BenchClient, label: string, args: Record<string, unknown>, ready: string): Promise<void> {
  const { sessionId } = await c.ok("start_session", { cols: 80, rows: 24, ...args });
  await c.ok("wait_for_text", { sessionId, pattern: ready, timeoutMs: 15_000 });
  await c.ok("wait_for_idle", { sessionId, idleMs: 300 });
  const n = QUICK ? 5 : 20;
  for (const [format, scale] of [
    ["png", 1],
    ["svg", 1],
    ["png", 2],
  ] as const) {
    const render: number[] = [];
    const trip: number[] = [];
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      const t = performance.now();
      const shot = await c.ok("screenshot", {
        sessionId,
        format,
        scale,
        path: join(dir, `${label}.${format}`),
        overwrite: true,
      });
      trip.push(performance.now() - t);
      render.push(shot.renderMs);
      bytes = shot.bytes;
    }
    rows.push({
      name: `screenshot ${label} ${format}${scale !== 1 ? ` x${scale}` : ""}`,
      value: `${(bytes / 1024).toFixed(1)} KiB`,
      note: `render p50 ${ms(p50(render))}, call p50 ${ms(p50(trip))} p95 ${ms(p95(trip))}`,
    });
  }
  await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
}

async function screenshots(): Promise<void> {
  const c = await connect();
  const { sessionId } = await c.ok("start_session", { command: "bash", args: ["--norc"] });
  const t = performance.now();
  await c.ok("screenshot", { sessionId, path: join(dir, "first.png") });
  rows.push({ name: "screenshot first call (wasm + fonts load)", value: ms(performance.now() - t) });
  await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
  await screen(c, "demo", { command: process.execPath, args: [join(ROOT, "scripts", "demo-tui.ts")] }, "READY");
  if (Bun.which("vim"))
    await screen(
      c,
      "vim",
      { command: "vim", args: ["-u", "NONE", "-N", "-n", "-R", "+syntax on", join(ROOT, "src", "render", "svg.ts")] },
      "svg.ts",
    );
  if (Bun.which("htop")) await screen(c, "htop", { command: "htop" }, "Load average");
  await c.close();
}

/** Time from start_session to the last line of `seq 1 N` on screen, with and without recording. */
async function recording(): Promise<void> {
  const n = QUICK ? 100_000 : 300_000;
  const c = await connect();
  for (const record of [false, true, false, true]) {
    const path = join(dir, `flood-${record}.cast`);
    const t = performance.now();
    const { sessionId } = await c.ok("start_session", {
      command: "seq",
      args: ["1", String(n)],
      ...(record ? { record: path } : {}),
    });
    await c.ok("wait_for_text", { sessionId, pattern: `\n${n}`, timeoutMs: 120_000, errorOnTimeout: true }, 130_000);
    const elapsed = performance.now() - t;
    const stats = record ? await c.ok("stop_recording", { sessionId }) : undefined;
    rows.push({
      name: `seq 1 ${n} ${record ? "recorded" : "not recorded"}`,
      value: ms(elapsed),
      note: stats ? `${stats.events} events, ${(statSync(path).size / 1024 / 1024).toFixed(1)} MiB cast` : undefined,
    });
  }
  await c.close();
}

/** Agent input to its echo arriving in a viewer tab, and the attach repaint. */
async function webViewer(): Promise<void> {
  const c = await connect({ DISPLAY: "", WAYLAND_DISPLAY: "" });
  const { sessionId } = await c.ok("start_session", {
    command: process.execPath,
    args: [join(ROOT, "test", "fixtures", "echo-keys.ts")],
  });
  await c.ok("wait_for_text", { sessionId, pattern: "READY" });
  const { url } = await c.ok("web_viewer", { sessionId });
  const page = new URL(url);
  const ws = new WebSocket(`ws://${page.host}/ws?token=${page.searchParams.get("token")}`, {
    headers: { Origin: page.origin },
  } as never);
  let waiting: { text: string; resolve: () => void } | undefined;
  let repainted: () => void = () => undefined;
  ws.onmessage = (event) => {
    const m = JSON.parse(String(event.data));
    if (m.type === "repaint") repainted();
    if (m.type === "output" && waiting && m.data.includes(waiting.text)) waiting.resolve();
  };
  await new Promise((resolve) => (ws.onopen = resolve));
  const attachStart = performance.now();
  await new Promise<void>((resolve) => {
    repainted = resolve;
    ws.send(JSON.stringify({ type: "attach", id: sessionId }));
  });
  rows.push({ name: "web viewer attach to first repaint", value: ms(performance.now() - attachStart) });
  const latencies: number[] = [];
  for (let i = 0; i < (QUICK ? 10 : 50); i++) {
    const ch = "abcdefghijklmnop"[i % 16]!; // not "q": it quits the fixture
    const seen = new Promise<void>(
      (resolve) => (waiting = { text: `KEY ${ch.charCodeAt(0).toString(16)}\r`, resolve }),
    );
    const t = performance.now();
    await c.ok("send_text", { sessionId, text: ch, captureScreen: false });
    await seen;
    latencies.push(performance.now() - t);
  }
  rows.push({
    name: "send_text to echo in a viewer tab",
    value: `p50 ${ms(p50(latencies))}`,
    note: `p95 ${ms(p95(latencies))}, n=${latencies.length}`,
  });
  ws.close();
  await c.close();
}

try {
  await screenshots();
  await recording();
  await webViewer();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const width = Math.max(...rows.map((r) => r.name.length));
for (const r of rows) console.log(`${r.name.padEnd(width)}  ${r.value.padStart(10)}  ${r.note ?? ""}`);
console.log(JSON.stringify({ date: new Date().toISOString(), quick: QUICK, rows }));
