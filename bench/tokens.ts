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
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Call, smallBash, type Task, tasks } from "./agent-tasks.ts";
import { connect, type BenchClient } from "./client.ts";
import { stamp, thousands, writeBlock } from "./readme-block.ts";

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
