/** The one renderer: summary line + compact JSON in content, the same data in structuredContent. */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TuiError } from "../errors.ts";
import type { ToolOutcome } from "./define.ts";

export function renderOutcome(outcome: ToolOutcome): CallToolResult {
  return {
    content: [{ type: "text", text: `${outcome.summary}\n${JSON.stringify(outcome.data)}` }, ...(outcome.extraContent ?? [])],
    structuredContent: outcome.data,
  };
}

export function renderError(error: TuiError): CallToolResult {
  const data: Record<string, unknown> = { error: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) } };
  if (error.details) data.details = error.details;
  const hint = error.hint ? `\nFix: ${error.hint}` : "";
  return {
    isError: true,
    content: [{ type: "text", text: `Error ${error.code}: ${error.message}${hint}\n${JSON.stringify(data)}` }],
    structuredContent: data,
  };
}
