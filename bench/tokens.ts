#!/usr/bin/env bun
/**
 * Token benchmark: what the agent reads. Counts o200k tokens (gpt-tokenizer) of every tool result in
 * five typical tasks, the small bash task, and the tools/list JSON. Text mode (the default): the
 * `content` text, all a client can hand the model. Structured mode (TUI_TESTER_OUTPUT=structured):
 * the structuredContent JSON, which Claude Code and Codex read instead of the text, and text plus JSON,
 * which Copilot CLI reads (client-delivery measurements; bench:clients runs the clients themselves).
 * The tasks find their session ids in the text, as a model does.
 *   bun bench/tokens.ts            text mode, its screenDetail "diff", and structured mode
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

/** Tokens of a task's results: the text, the structuredContent JSON, and both as Copilot CLI joins them. */
interface Counts {
  text: number;
  json: number;
  both: number;
}

async function measure(c: BenchClient, task: Task, dir: string): Promise<Counts | null> {
  if (!Bun.which(task.app)) {
    process.stderr.write(`skip ${task.name}: ${task.app} not installed\n`);
    return null;
  }
  const counts: Counts = { text: 0, json: 0, both: 0 };
  const call: Call = async (name, args = {}) => {
    const result = await c.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("\n");
    const json = result.structuredContent === undefined ? "" : JSON.stringify(result.structuredContent);
    counts.text += countTokens(text);
    counts.json += countTokens(json);
    counts.both += countTokens(json ? `${text}\n\n${json}` : text);
    if (result.isError) throw new Error(`${task.name}: ${name} failed: ${text.slice(0, 300)}`);
    const started = /^Started (\S+) \(pid/.exec(text);
    return started ? { sessionId: started[1] } : {};
  };
  await task.run(call, dir);
  return counts;
}

type Row = Record<string, Counts | null>;

async function run(label: string, env: Record<string, string>): Promise<Row> {
  const c = await connect(env);
  const dir = mkdtempSync(join(tmpdir(), "tokens-"));
  const row: Row = {};
  try {
    for (const task of tasks) row[task.name] = await measure(c, task, dir);
    const sum = (key: keyof Counts) => tasks.reduce((n, t) => n + (row[t.name]?.[key] ?? 0), 0);
    row["five tasks total"] = { text: sum("text"), json: sum("json"), both: sum("both") };
    row[smallBash.name] = await measure(c, smallBash, dir);
    const listed = countTokens(JSON.stringify((await c.client.listTools()).tools));
    row["tools/list"] = { text: listed, json: listed, both: listed };
  } finally {
    await c.close();
    rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`${label} done\n`);
  return row;
}

const results = {
  default: await run("text", { TUI_TESTER_OUTPUT: "text" }),
  diff: await run("text, diff", { TUI_TESTER_OUTPUT: "text", TUI_TESTER_SCREEN_DETAIL: "diff" }),
  structured: await run("structured", { TUI_TESTER_OUTPUT: "structured" }),
};
const names = Object.keys(results.default);
const n = (counts: Counts | null | undefined, key: keyof Counts) => thousands(counts?.[key] ?? null);
const table = [
  "| Measure (o200k tokens) | default (text) | screenDetail diff | structured: JSON (Claude Code, Codex) | structured: text + JSON (Copilot CLI) |",
  "|---|---:|---:|---:|---:|",
  ...names.map(
    (name) =>
      `| ${name} | ${n(results.default[name], "text")} | ${n(results.diff[name], "text")} | ` +
      `${n(results.structured[name], "json")} | ${n(results.structured[name], "both")} |`,
  ),
].join("\n");
console.log(table);
if (process.argv.includes("--json")) console.log(JSON.stringify(results, null, 2));
if (process.argv.includes("--write"))
  writeBlock(join(import.meta.dir, "README.md"), "tokens", `Measured ${stamp()}:\n\n${table}`);
