#!/usr/bin/env bun
/**
 * tools/list cost per tool (o200k tokens of each tool's JSON, gpt-tokenizer), the way a host reads it:
 * the real server over stdio. test/e2e/catalog.test.ts caps the whole `tools` array.
 *   bun bench/tool-tokens.ts           table, largest first
 *   bun bench/tool-tokens.ts --json    { tool: { total, description, inputSchema, outputSchema } }
 *   bun bench/tool-tokens.ts --write   also rewrite the table in bench/README.md (bun run bench:tool-tokens --write)
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { join } from "node:path";
import { connect } from "./client.ts";
import { stamp, thousands, writeBlock } from "./readme-block.ts";

interface ListedTool {
  name: string;
  description?: string;
  inputSchema: unknown;
  outputSchema?: unknown;
}

export function toolTokenRows(tools: ListedTool[]) {
  const rows = tools.map((t) => ({
    name: t.name,
    total: countTokens(JSON.stringify(t)),
    description: countTokens(JSON.stringify(t.description ?? "")),
    inputSchema: countTokens(JSON.stringify(t.inputSchema)),
    outputSchema: countTokens(JSON.stringify(t.outputSchema ?? {})),
  }));
  return { rows, total: countTokens(JSON.stringify(tools)) };
}

/** The markdown table published in bench/README.md (its tool-tokens block). */
export function toolTokensTable(tools: ListedTool[]): string {
  const { rows, total } = toolTokenRows(tools);
  return [
    "| tool | total | description | inputSchema | outputSchema |",
    "|---|---:|---:|---:|---:|",
    ...rows
      .toSorted((a, b) => b.total - a.total || a.name.localeCompare(b.name))
      .map((r) => `| ${r.name} | ${r.total} | ${r.description} | ${r.inputSchema} | ${r.outputSchema} |`),
    `| **tools/list** | **${thousands(total)}** | | | |`,
  ].join("\n");
}

if (import.meta.main) {
  const c = await connect();
  try {
    const { tools } = await c.client.listTools();
    if (process.argv.includes("--json")) {
      const { rows, total } = toolTokenRows(tools);
      console.log(
        JSON.stringify({ total, tools: Object.fromEntries(rows.map(({ name, ...r }) => [name, r])) }, null, 2),
      );
    } else {
      const table = toolTokensTable(tools);
      console.log(table);
      if (process.argv.includes("--write"))
        writeBlock(
          join(import.meta.dir, "README.md"),
          "tool-tokens",
          `Measured ${stamp()} (token counts do not depend on load):\n\n${table}`,
        );
    }
  } finally {
    await c.close();
  }
}
