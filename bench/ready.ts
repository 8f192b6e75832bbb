#!/usr/bin/env bun
/**
 * The ready oracle (issue 18): `bun bench/ready.ts [--quick] [fixtures] [apps]`.
 *
 * fixtures: programs whose answer to a key comes after a delay of a known kind (nanosleep, select
 * and poll timeouts, CPU work, node timers, a shell command and pipeline, a REPL computation, a
 * spinner, apps that answer at once, the two-phase app of issue 11). Each input's after-screen is
 * checked for the answer the fixture is known to give (premature = answer missing). Every case runs
 * under the oracle and under the quiet window (TUI_TESTER_READY=quiet), interleaved input by input,
 * so both see the same machine load. Reports premature counts, how the settles ended, settle p50,
 * and the oracle's /proc reads per settle and their time.
 *
 * apps: the real programs at hand (htop, vim, mc, less, nano, dialog, python3, bash): how each
 * settle ended, and how often the oracle had to fall back to the quiet window.
 */
import { procCost } from "../src/session/ready/proc.ts";
import type { SessionRegistry } from "../src/session/registry.ts";
import type { Session } from "../src/session/session.ts";
import { benchRegistry, countsText, median, press, startProgram, waitReady } from "./helpers.ts";

const argv = process.argv.slice(2);
const QUICK = argv.includes("--quick");
const sections = argv.filter((a) => !a.startsWith("--"));
const want = (name: string) => sections.length === 0 || sections.includes(name);
/** `--only=WORD`: only the fixture cases and apps whose name holds WORD. */
const only = argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const ROUNDS = QUICK ? 3 : 10;
const fixture = (name: string) => new URL(`../test/fixtures/${name}`, import.meta.url).pathname;

interface Case {
  name: string;
  command: string;
  args: string[];
  ready: string;
  input: (n: number) => string;
  /** What the after-screen must hold for input n (the full answer). */
  answer: (n: number) => string;
  env?: Record<string, string>;
}

const py = (mode: string, ms: number): Case => ({
  name: `python raw ${mode} ${ms} ms`,
  command: "python3",
  args: [fixture("ready-app.py"), mode, String(ms)],
  ready: "READY",
  input: () => "x",
  answer: (n) => `DONE ${n}`,
});

/** A bun program answering from a setTimeout: bun idles in a 1 s timed wait, the timer cuts it short. */
const bunTimer = (ms: number): Case => ({
  name: `bun setTimeout ${ms} ms`,
  command: process.execPath,
  args: [fixture("two-phase-app.ts"), String(ms)],
  ready: "READY",
  input: () => "x",
  answer: (n) => `PHASE2 ${n}`,
});

const CASES: Case[] = [
  py("now", 0),
  py("sleep", 50),
  py("sleep", 150),
  py("sleep", 400),
  py("select", 150),
  py("select", 400),
  py("poll", 150),
  py("cpu", 150),
  py("cpu", 400),
  {
    name: "node setTimeout 150 ms",
    command: "node",
    args: [fixture("ready-node.js"), "150"],
    ready: "READY",
    input: () => "x",
    answer: (n) => `DONE ${n}`,
  },
  {
    name: "node setTimeout 400 ms",
    command: "node",
    args: [fixture("ready-node.js"), "400"],
    ready: "READY",
    input: () => "x",
    answer: (n) => `DONE ${n}`,
  },
  {
    name: "bash: sleep 0.3; echo",
    command: "bash",
    args: ["--norc", "--noprofile"],
    env: { PS1: "$ " },
    ready: "$",
    input: (n) => `sleep 0.3; echo done-$((${n}*1))\r`,
    answer: (n) => `done-${n}\n$`,
  },
  {
    name: "bash: sleep 0.3 | cat",
    command: "bash",
    args: ["--norc", "--noprofile"],
    env: { PS1: "$ " },
    ready: "$",
    input: (n) => `sleep 0.3 | cat; echo pipe-$((${n}*1))\r`,
    answer: (n) => `pipe-${n}\n$`,
  },
  {
    name: "python REPL 0.2-0.5 s",
    command: "python3",
    args: ["-q"],
    ready: ">>>",
    input: (n) => `len([i*i for i in range(${1_000_000 + n * 300_000})])+${n}\r`,
    answer: (n) => `${1_000_000 + n * 300_000 + n}\n>>>`,
  },
  {
    name: "spinner (80 ms redraw)",
    command: process.execPath,
    args: [fixture("spinner-app.ts")],
    ready: "spinning",
    input: () => "x",
    answer: (n) => `KEY ${n}`,
  },
  {
    name: "two-phase (issue 11, 60 ms)",
    command: process.execPath,
    args: [fixture("two-phase-app.ts"), "60"],
    ready: "READY",
    input: () => "x",
    answer: (n) => `PHASE2 ${n}`,
  },
  bunTimer(150),
  bunTimer(400),
  {
    name: "bun raw mode, answers at once",
    command: process.execPath,
    args: [fixture("two-phase-app.ts"), "0"],
    ready: "READY",
    input: () => "x",
    answer: (n) => `PHASE2 ${n}`,
  },
  {
    name: "vim insert",
    command: "vim",
    args: ["-u", "NONE", "-N", "-n"],
    ready: "~",
    input: (n) => (n === 1 ? "i" : "") + String.fromCharCode(96 + n),
    answer: (n) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + i)).join(""),
  },
  {
    name: "less page",
    command: "less",
    args: ["/etc/services"],
    ready: "services",
    input: () => " ",
    answer: () => "",
  },
];

interface Tally {
  premature: number;
  claimedDone: number;
  settledBy: Record<string, number>;
  waited: number[];
  reads: number[];
  procMs: number[];
}
const tally = (): Tally => ({ premature: 0, claimedDone: 0, settledBy: {}, waited: [], reads: [], procMs: [] });

async function startCase(registry: SessionRegistry, c: Case): Promise<Session> {
  const session = await startProgram(registry, c);
  await waitReady(session, c.ready);
  return session;
}

async function fixtures(): Promise<void> {
  const oracle = benchRegistry("auto");
  const quiet = benchRegistry("quiet");
  console.log(`fixtures: ${ROUNDS} inputs per case and mode, interleaved (oracle, quiet window)`);
  console.log(
    "| case | oracle: premature | settledBy | p50 ms | /proc reads, ms per settle | quiet window: premature | p50 ms |",
  );
  console.log("|---|---|---|---|---|---|---|");
  const total = { oracle: tally(), quiet: tally() };
  for (const c of CASES) {
    if (only !== undefined && !c.name.includes(only)) continue;
    if (Bun.which(c.command) === null) {
      console.log(`| ${c.name} | skipped: ${c.command} not installed |`);
      continue;
    }
    const sessions = { oracle: await startCase(oracle, c), quiet: await startCase(quiet, c) };
    const t = { oracle: tally(), quiet: tally() };
    for (let n = 1; n <= ROUNDS; n++) {
      for (const mode of ["oracle", "quiet"] as const) {
        const before = { reads: procCost.reads, ms: procCost.ms };
        const block = await press(sessions[mode], c.input(n));
        const text = block.after!.text.replace(/[ \t]+$/gm, "");
        const missing = !text.includes(c.answer(n));
        for (const into of [t[mode], total[mode]]) {
          into.settledBy[block.settledBy] = (into.settledBy[block.settledBy] ?? 0) + 1;
          into.waited.push(block.waitedMs);
          into.reads.push(procCost.reads - before.reads);
          into.procMs.push(procCost.ms - before.ms);
          if (missing) into.premature++;
          if (missing && into === total[mode] && mode === "oracle")
            console.log(`  premature: ${c.name} #${n} settledBy ${block.settledBy} after ${block.waitedMs} ms`);
          if (missing && ["idle", "periodic", "quiet"].includes(block.settledBy)) into.claimedDone++;
        }
      }
    }
    await oracle.stop(sessions.oracle.id, "SIGKILL", 0);
    await quiet.stop(sessions.quiet.id, "SIGKILL", 0);
    const o = t.oracle;
    const claimed = o.claimedDone ? ` (${o.claimedDone} claimed done)` : "";
    const cost = `${median(o.reads)}, ${median(o.procMs).toFixed(2)}`;
    const quietCells = `${t.quiet.premature}/${ROUNDS} | ${median(t.quiet.waited)}`;
    const oracleCells = `${o.premature}/${ROUNDS}${claimed} | ${countsText(o.settledBy)} | ${median(o.waited)} | ${cost}`;
    console.log(`| ${c.name} | ${oracleCells} | ${quietCells} |`);
  }
  const all = (x: Tally) => x.waited.length;
  const sum = (x: Tally) => `premature ${x.premature}/${all(x)} (claimed done: ${x.claimedDone})`;
  console.log(`\nall cases: oracle ${sum(total.oracle)}; quiet window ${sum(total.quiet)}`);
  await oracle.shutdown(200);
  await quiet.shutdown(200);
}

/** Real apps: typical keys, how each settle ended. */
async function apps(): Promise<void> {
  const list: [string, string, string[], string, string[]][] = [
    ["htop", "htop", [], "PID", ["\x1b[B", "\x1b[B", "\x1b[A"]],
    ["vim", "vim", ["-u", "NONE", "-N", "-n", "/etc/services"], "services", ["j", "j", "G", "gg"]],
    ["mc", "mc", [], "Left", ["\x1b[B", "\x1b[B", "\t"]],
    ["less", "less", ["/etc/services"], "services", [" ", " ", "b"]],
    ["nano", "nano", [], "GNU nano", ["a", "b", "\r"]],
    [
      "dialog",
      "dialog",
      ["--menu", "Pick", "15", "40", "4", "a", "one", "b", "two", "c", "three"],
      "three",
      ["j", "\t", "\t"],
    ],
    ["python3", "python3", ["-q"], ">>>", ["1+1\r", "'x'*3\r"]],
    ["bash", "bash", ["--norc", "--noprofile"], "$", ["echo hi\r", "ls /\r"]],
  ];
  const registry = benchRegistry("auto");
  console.log("\nreal apps: how each settle ended");
  console.log("| app | inputs | settledBy | fell back to quiet | p50 ms | /proc reads per settle |");
  console.log("|---|---|---|---|---|---|");
  for (const [name, command, args, ready, keys] of list) {
    if (only !== undefined && !name.includes(only)) continue;
    if (Bun.which(command) === null) {
      console.log(`| ${name} | skipped: not installed |`);
      continue;
    }
    const env = { PS1: "$ ", DIALOGRC: "/dev/null" };
    const session = await startProgram(registry, { command, args, env }, { cols: 100, rows: 30 });
    await waitReady(session, ready);
    const t = tally();
    for (let round = 0; round < (QUICK ? 1 : 3); round++) {
      for (const key of keys) {
        if (!session.running) break;
        const before = procCost.reads;
        const block = await press(session, key);
        if (process.env.READY_BENCH_DEBUG)
          console.log(name, JSON.stringify(key), block.settledBy, block.waitedMs, JSON.stringify(block.busy));
        t.settledBy[block.settledBy] = (t.settledBy[block.settledBy] ?? 0) + 1;
        t.waited.push(block.waitedMs);
        t.reads.push(procCost.reads - before);
      }
    }
    const fellBack = t.settledBy.quiet ?? 0;
    console.log(
      `| ${name} | ${t.waited.length} | ${countsText(t.settledBy)} | ${fellBack}/${t.waited.length} | ` +
        `${median(t.waited)} | ${median(t.reads)} |`,
    );
    await registry.stop(session.id, "SIGKILL", 0);
  }
  await registry.shutdown(200);
}

/**
 * The first settled input of a fresh session against the later ones (issue 30): vim started anew each
 * round, `i` sent as soon as its screen shows, then three more keys. Total time per input (held,
 * settled and read), p50 over the rounds.
 */
async function firstInput(): Promise<void> {
  if (Bun.which("vim") === null) return console.log("\nfirst input: skipped, vim not installed");
  const registry = benchRegistry("auto");
  const first: number[] = [];
  const later: number[] = [];
  const settledBy: Record<string, number> = {};
  const rounds = QUICK ? 5 : 20;
  for (let round = 0; round < rounds; round++) {
    const session = await startProgram(registry, { command: "vim", args: ["-u", "NONE", "-N", "-n"] });
    await waitReady(session, "~", { pollIntervalMs: 5 });
    for (const [n, key] of ["i", "a", "b", "c"].entries()) {
      const block = await press(session, key);
      (n === 0 ? first : later).push(block.totalMs);
      if (process.env.READY_BENCH_DEBUG && n === 0)
        console.log(block.totalMs, block.waitedMs, JSON.stringify(block.held));
      settledBy[block.settledBy] = (settledBy[block.settledBy] ?? 0) + 1;
    }
    await registry.stop(session.id, "SIGKILL", 0);
  }
  await registry.shutdown(200);
  const gap = median(first) - median(later);
  console.log(
    `\nfirst input (vim, ${rounds} fresh sessions): first p50 ${median(first)} ms (max ${Math.max(...first)}),`,
  );
  console.log(`later p50 ${median(later)} ms; first minus later ${gap} ms (target <= 20); ${countsText(settledBy)}`);
}

/**
 * The first-input gate over MCP (the real server over stdio): a program that queries its terminal at
 * start and drops what it reads until the replies (test/fixtures/query-at-start.*) gets the key sent
 * as soon as its welcome screen shows. Counts the runs in which the key landed.
 */
async function gate(): Promise<void> {
  const { connect } = await import("./client.ts");
  const client = await connect();
  const runs = QUICK ? 5 : 20;
  console.log(`\nfirst-input gate over MCP, ${runs} fresh sessions per program:`);
  for (const [name, command, file] of [
    ["python3", "python3", "query-at-start.py"],
    ["node", "node", "query-at-start.js"],
  ] as const) {
    if (Bun.which(command) === null) {
      console.log(`  ${name}: skipped, not installed`);
      continue;
    }
    let landed = 0;
    const held: number[] = [];
    for (let run = 0; run < runs; run++) {
      const { sessionId } = await client.ok("start_session", { command, args: [fixture(file)] });
      await client.ok("wait_for_text", { sessionId, pattern: "WELCOME", pollIntervalMs: 5 });
      const sent = await client.call("send_keys", {
        sessionId,
        keys: "z",
        waitFor: { pattern: "KEY z", timeoutMs: 3000 },
      });
      if (!sent.isError && sent.data.waitFor?.matched !== false) landed++;
      if (sent.data.screen?.held) held.push(sent.data.screen.held.heldMs);
      await client.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
    }
    console.log(
      `  ${name}: the first key landed in ${landed} of ${runs}; held p50 ${median(held)} ms (${held.length} held)`,
    );
  }
  await client.close();
}

if (want("gate")) await gate();
if (want("first")) await firstInput();
if (want("fixtures")) await fixtures();
if (want("apps")) await apps();
process.exit(0);
