#!/usr/bin/env bun
/**
 * tools/list cost per tool (o200k tokens of each tool's JSON, gpt-tokenizer), the way a host reads it:
 * the real server over stdio. Issue 11 caps the whole `tools` array at 6,000.
 *   bun bench/tool-tokens.ts           table, largest first
 *   bun bench/tool-tokens.ts --json    { tool: { total, description, inputSchema, outputSchema } }
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { connect } from "./client.ts";

const c = await connect();
try {
  const { tools } = await c.client.listTools();
  const rows = tools.map((t) => ({
    name: t.name,
    total: countTokens(JSON.stringify(t)),
    description: countTokens(JSON.stringify(t.description ?? "")),
    inputSchema: countTokens(JSON.stringify(t.inputSchema)),
    outputSchema: countTokens(JSON.stringify(t.outputSchema ?? {})),
  }));
  const total = countTokens(JSON.stringify(tools));
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ total, tools: Object.fromEntries(rows.map(({ name, ...r }) => [name, r])) }, null, 2));
  } else {
    console.log("| tool | total | description | inputSchema | outputSchema |");
    console.log("|---|---:|---:|---:|---:|");
    for (const r of rows.toSorted((a, b) => b.total - a.total)) console.log(`| ${r.name} | ${r.total} | ${r.description} | ${r.inputSchema} | ${r.outputSchema} |`);
    console.log(`| **tools/list** | **${total}** | | | |`);
  }
} finally {
  await c.close();
}
