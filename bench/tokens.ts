#!/usr/bin/env bun
/**
 * Token benchmark: what the agent reads. Counts o200k tokens (gpt-tokenizer) over the `content`
 * text of every tool result in five typical tasks, the small bash task, and the tools/list JSON.
 *   bun bench/tokens.ts            default settings and screenDetail "diff"
 *   bun bench/tokens.ts --json     also print the per-call table as JSON
 *   bun bench/tokens.ts --write    also rewrite the figures in bench/README.md (bun run bench:tokens --write)
 * Needs vim, htop, less and python3 (a task whose app is missing is skipped and says so).
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type BenchClient } from "./client.ts";
import { stamp, thousands, writeBlock } from "./readme-block.ts";

type Call = (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;

interface Task {
  name: string;
  app: string;
  run(call: Call, dir: string): Promise<void>;
}

const SHELL = { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ " } };

const tasks: Task[] = [
  {
    name: "vim edit/save/quit",
    app: "vim",
    async run(call, dir) {
      const file = join(dir, "notes.txt");
      writeFileSync(file, "first line\nsecond line\n");
      const { sessionId } = await call("start_session", { command: "vim", args: ["-u", "NONE", "-N", file] });
      await call("wait_for_text", { sessionId, pattern: "notes.txt" });
      await call("send_keys", { sessionId, keys: ["j", "A"] });
      await call("send_text", { sessionId, text: " edited" });
      await call("send_keys", { sessionId, keys: "Escape" });
      await call("send_text", { sessionId, text: ":wq\r" });
      await call("get_exit_info", { sessionId });
      await call("stop_session", { sessionId });
    },
  },
  {
    name: "htop F2 + navigation",
    app: "htop",
    async run(call) {
      const { sessionId } = await call("start_session", { command: "htop", cols: 100, rows: 30 });
      await call("wait_for_text", { sessionId, pattern: "F10" });
      await call("send_keys", { sessionId, keys: "F2", waitFor: { pattern: "Setup" } });
      await call("send_keys", { sessionId, keys: "down" });
      await call("send_keys", { sessionId, keys: "down" });
      await call("send_keys", { sessionId, keys: "right" });
      await call("send_keys", { sessionId, keys: "Escape" });
      await call("send_keys", { sessionId, keys: "q" });
      await call("stop_session", { sessionId });
    },
  },
  {
    name: "bash, 5 commands",
    app: "bash",
    async run(call) {
      const { sessionId } = await call("start_session", SHELL);
      await call("wait_for_text", { sessionId, pattern: "$" });
      for (const [i, cmd] of ["echo hello", "pwd", "ls /", "printf 'a\\nb\\nc\\n'", "echo done"].entries()) {
        await call("send_text", {
          sessionId,
          text: `${cmd}\r`,
          waitFor: { pattern: i === 4 ? "done\n$" : "$", regex: false },
        });
      }
      await call("get_text", { sessionId });
      await call("stop_session", { sessionId });
    },
  },
  {
    name: "python REPL",
    app: "python3",
    async run(call) {
      const { sessionId } = await call("start_session", {
        command: "python3",
        args: ["-q"],
        env: { PYTHON_BASIC_REPL: "1" },
      });
      await call("wait_for_text", { sessionId, pattern: ">>>" });
      await call("send_text", { sessionId, text: "1 + 1\r", waitFor: { pattern: "2" } });
      await call("send_text", { sessionId, text: "def f(x):\r" });
      await call("send_text", { sessionId, text: "    return x * 2\r" });
      await call("send_text", { sessionId, text: "\r" });
      await call("send_text", { sessionId, text: "f(21)\r", waitFor: { pattern: "42" } });
      await call("send_text", { sessionId, text: "exit()\r" });
      await call("get_exit_info", { sessionId });
    },
  },
  {
    name: "less paging + search",
    app: "less",
    async run(call, dir) {
      const file = join(dir, "lines.txt");
      writeFileSync(file, Array.from({ length: 500 }, (_, i) => `line ${i + 1} of the file`).join("\n"));
      const { sessionId } = await call("start_session", { command: "less", args: [file] });
      await call("wait_for_text", { sessionId, pattern: "line 1 of" });
      await call("send_keys", { sessionId, keys: "space" });
      await call("send_keys", { sessionId, keys: "space" });
      await call("send_text", { sessionId, text: "/line 300\r", waitFor: { pattern: "line 300 of" } });
      await call("send_keys", { sessionId, keys: "n" });
      await call("send_keys", { sessionId, keys: "q" });
      await call("stop_session", { sessionId });
    },
  },
];

const smallBash: Task = {
  name: "small bash task",
  app: "bash",
  async run(call) {
    const { sessionId } = await call("start_session", SHELL);
    await call("wait_for_text", { sessionId, pattern: "$" });
    for (const cmd of ["echo one", "echo two", "echo three", "echo four", "echo five"])
      await call("send_text", { sessionId, text: `${cmd}\r` });
    await call("get_text", { sessionId });
    await call("stop_session", { sessionId });
  },
};

async function measure(c: BenchClient, task: Task, dir: string): Promise<number | null> {
  if (!Bun.which(task.app)) {
    process.stderr.write(`skip ${task.name}: ${task.app} not installed\n`);
    return null;
  }
  let tokens = 0;
  const call: Call = async (name, args = {}) => {
    const result = await c.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("\n");
    tokens += countTokens(text);
    if (result.isError) throw new Error(`${task.name}: ${name} failed: ${text.slice(0, 300)}`);
    return (result.structuredContent ?? {}) as Record<string, any>;
  };
  await task.run(call, dir);
  return tokens;
}

async function run(label: string, env: Record<string, string>): Promise<Record<string, number | null>> {
  const c = await connect(env);
  const dir = mkdtempSync(join(tmpdir(), "tokens-"));
  const row: Record<string, number | null> = {};
  try {
    for (const task of tasks) row[task.name] = await measure(c, task, dir);
    row["five tasks total"] = tasks.reduce((sum, t) => sum + (row[t.name] ?? 0), 0);
    row[smallBash.name] = await measure(c, smallBash, dir);
    const { tools } = await c.client.listTools();
    row["tools/list"] = countTokens(JSON.stringify(tools));
  } finally {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`${label} done\n`);
  return row;
}

const results = { default: await run("default", {}), diff: await run("diff", { TUI_TESTER_SCREEN_DETAIL: "diff" }) };
const names = Object.keys(results.default);
const table = [
  "| Measure (o200k tokens) | default | screenDetail diff |",
  "|---|---:|---:|",
  ...names.map(
    (name) => `| ${name} | ${thousands(results.default[name] ?? null)} | ${thousands(results.diff[name] ?? null)} |`,
  ),
].join("\n");
console.log(table);
if (process.argv.includes("--json")) console.log(JSON.stringify(results, null, 2));
if (process.argv.includes("--write"))
  writeBlock(join(import.meta.dir, "README.md"), "tokens", `Measured ${stamp()}:\n\n${table}`);
