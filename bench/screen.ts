/**
 * Screen-side measurements (not part of `bun run bench`): `bun bench/screen.ts`.
 * - gaps: how real apps answer one key (first output, largest gap between chunks), to size the
 *   adaptive settle's quiet window;
 * - settle: over MCP, how often the default settle's after-screen holds a second chunk printed
 *   60 ms after the first, and what a send_keys with the default settle costs (p50);
 * - cells / highlights: time to build them for 80x24, 300x100 and 1000x500 coloured screens;
 * - regex: `(a+)+$` and `(a+)+b` on a screen of 1,800 a's, JS RegExp vs RE2.
 */
import { RE2JS } from "re2js";
import { SessionRegistry } from "../src/session/registry.ts";
import { Emulator } from "../src/term/emulator.ts";
import { connect } from "./client.ts";

const fixture = (name: string) => new URL(`../test/fixtures/${name}`, import.meta.url).pathname;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);

async function gaps(): Promise<void> {
  const registry = new SessionRegistry();
  const apps: [string, string, string[], string, string][] = [
    ["bash (echo)", "bash", ["--norc", "--noprofile"], "$", "echo hi\r"],
    ["python3 (1+1)", "python3", ["-q"], ">>>", "1+1\r"],
    ["vim (j)", "vim", ["-u", "NONE", "/etc/services"], "services", "j"],
    ["less (space)", "less", ["/etc/services"], "services", " "],
    ["htop (down)", "htop", [], "PID", "\x1b[B"],
    ["two-phase fixture", process.execPath, [fixture("two-phase-app.ts")], "READY", "x"],
  ];
  for (const [name, command, args, ready, input] of apps) {
    if (Bun.which(command) === null) continue;
    const s = await registry.start({
      command,
      args,
      cols: 80,
      rows: 24,
      term: "xterm-256color",
      env: { PS1: "$ " },
    } as never);
    for (let i = 0; i < 500 && !s.emulator.text().includes(ready); i++) await Bun.sleep(20);
    await Bun.sleep(700);
    const firsts: number[] = [];
    const largest: number[] = [];
    for (let round = 0; round < 8; round++) {
      const times: number[] = [];
      const off = s.onOutput(() => times.push(performance.now()));
      const t0 = performance.now();
      s.write(new TextEncoder().encode(input));
      await Bun.sleep(500);
      off();
      if (times.length === 0) continue;
      firsts.push(times[0]! - t0);
      largest.push(Math.max(0, ...times.slice(1).map((t, i) => t - times[i]!)));
    }
    console.log(
      `gaps | ${name} | first output p50 ${ms(median(firsts))} ms | largest gap between chunks: max ${ms(Math.max(...largest))} ms over ${largest.length} keys`,
    );
    s.signal("SIGKILL");
  }
}

async function settle(): Promise<void> {
  const c = await connect();
  const { sessionId } = await c.ok("start_session", {
    command: process.execPath,
    args: [fixture("two-phase-app.ts"), "60"],
    cols: 40,
    rows: 10,
  });
  await c.ok("wait_for_text", { sessionId, pattern: "READY" });
  let caught = 0;
  const waited: number[] = [];
  const rounds = 10;
  for (let round = 1; round <= rounds; round++) {
    const r = await c.ok("send_keys", { sessionId, keys: "x" });
    if (r.screen.after.text.includes(`PHASE2 ${round}`)) caught++;
    waited.push(r.screen.waitedMs);
    await c.ok("wait_for_text", { sessionId, pattern: `PHASE2 ${round}` });
  }
  console.log(
    `settle | two-phase (60 ms gap) | after-screen has the second chunk ${caught}/${rounds} | waitedMs p50 ${median(waited)}`,
  );
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  const echo = await c.ok("start_session", { command: process.execPath, args: [fixture("echo-keys.ts")] });
  await c.ok("wait_for_text", { sessionId: echo.sessionId, pattern: "READY" });
  const rtt: number[] = [];
  for (let i = 0; i < 25; i++) {
    const t = performance.now();
    await c.ok("send_keys", { sessionId: echo.sessionId, keys: "a" });
    if (i >= 5) rtt.push(performance.now() - t);
  }
  console.log(`settle | send_keys, default settle, echo fixture | round trip p50 ${ms(median(rtt))} ms`);
  await c.ok("stop_session", { sessionId: echo.sessionId, signal: "SIGKILL", graceMs: 0 });
  await c.close();
}

async function cells(): Promise<void> {
  for (const [cols, rows] of [
    [80, 24],
    [300, 100],
    [1000, 500],
  ] as const) {
    const e = new Emulator({ cols, rows, reply: () => {} });
    let screen = "";
    for (let r = 0; r < rows; r++) {
      screen += `\x1b[${r + 1};1H`;
      for (let c = 0; c < cols; c += 10) screen += `\x1b[3${(r + c) % 8};4${(c / 10) % 8}mabcdefghij`;
    }
    e.write(`${screen}\x1b[0m`);
    await e.flushed();
    const cellTimes: number[] = [];
    const lightTimes: number[] = [];
    let bytes = 0;
    for (let i = 0; i < 7; i++) {
      let t = performance.now();
      bytes = JSON.stringify(e.snapshot({ format: "cells" }).cells).length;
      cellTimes.push(performance.now() - t);
      t = performance.now();
      e.snapshot({ highlights: true });
      lightTimes.push(performance.now() - t);
    }
    console.log(
      `cells | ${cols}x${rows} | cells + JSON p50 ${ms(median(cellTimes))} ms, ${(bytes / 1024).toFixed(0)} KiB (one call) | text + highlights p50 ${ms(median(lightTimes))} ms`,
    );
    e.dispose();
  }
}

function regex(): void {
  const screen = `${"a".repeat(80)}\n`.repeat(22) + `${"a".repeat(40)}\n!`;
  for (const pattern of ["(a+)+$", "(a+)+b"]) {
    let t = performance.now();
    new RegExp(pattern).exec(screen.slice(0, 26)); // JS on just 26 a's: the full screen would take hours
    const js = performance.now() - t;
    const re = RE2JS.compile(pattern);
    t = performance.now();
    re.exec(screen);
    const re2 = performance.now() - t;
    console.log(
      `regex | ${pattern} | JS RegExp on 26 a's ${ms(js)} ms (doubles per extra a) | RE2 on the 1,800-a screen ${ms(re2)} ms`,
    );
  }
}

const only = process.argv.slice(2);
const want = (name: string) => only.length === 0 || only.includes(name);
console.log(`# bun bench/screen.ts, ${new Date().toISOString()}`);
if (want("gaps")) await gaps();
if (want("settle")) await settle();
if (want("cells")) await cells();
if (want("regex")) regex();
process.exit(0);
