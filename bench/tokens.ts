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
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Call, smallBash, type Task, tasks } from "./agent-tasks.ts";
import { connect, type BenchClient } from "./client.ts";
import { stamp, thousands, writeBlock } from "./readme-block.ts";

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
