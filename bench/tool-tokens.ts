#!/usr/bin/env bun
/**
 * tools/list cost per tool (o200k tokens of each tool's JSON, gpt-tokenizer), the way a host reads it:
 * the real server over stdio, in the default text mode (no outputSchema); the totals of the core set and
 * of structured mode follow the table. test/e2e/catalog.test.ts caps each.
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
    outputSchema: t.outputSchema === undefined ? 0 : countTokens(JSON.stringify(t.outputSchema)),
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

/** The whole tools/list of a server started with `env`. */
async function listedTokens(env: Record<string, string>): Promise<number> {
  const c = await connect(env);
  try {
    return countTokens(JSON.stringify((await c.client.listTools()).tools));
  } finally {
    await c.close();
  }
}

if (import.meta.main) {
  const c = await connect({ TUI_TESTER_OUTPUT: "text" });
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
      const core = await listedTokens({ TUI_TESTER_OUTPUT: "text", TUI_TESTER_TOOLS: "core" });
      const structured = await listedTokens({ TUI_TESTER_OUTPUT: "structured" });
      console.log(
        `\nTUI_TESTER_TOOLS=core: ${thousands(core)}; TUI_TESTER_OUTPUT=structured: ${thousands(structured)}`,
      );
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
