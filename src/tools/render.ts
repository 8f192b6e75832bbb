/**
 * The one renderer. content: a compact text view for the model (render-text.ts), or the summary and
 * JSON when TUI_TESTER_CONTENT=json. structuredContent: the full result contract. Both bounded
 * by reply-cap.ts.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TuiError } from "../errors.ts";
import type { ToolOutcome } from "./define.ts";
import { errorSummary } from "../util/clip.ts";
import { capReply, type ReplyLimit } from "./reply-cap.ts";
import { renderErrorText, renderText } from "./render-text.ts";
import { fieldsWithout, ReplyError, type ReplyParts } from "./reply.ts";

/** How replies are written: the content form (TUI_TESTER_CONTENT) and the size cap. */
export interface ReplyOptions extends ReplyLimit {
  content: "text" | "json";
}

export function renderOutcome(outcome: ToolOutcome, tool: string, reply: ReplyOptions): CallToolResult {
  const data = outcome.error ? { ...outcome.data, error: outcome.error } : outcome.data;
  const parts = outcome.parts ?? { fields: fieldsWithout(outcome.data) };
  const text =
    reply.content === "json"
      ? `${outcome.summary}\n${JSON.stringify(data)}`
      : outcome.error
        ? renderErrorText(outcome.error, parts)
        : renderText(outcome.summary, parts);
  const isError = outcome.isError || outcome.error !== undefined;
  const content = [{ type: "text" as const, text }, ...(outcome.extraContent ?? [])];
  return capReply({ ...(isError ? { isError: true } : {}), content, structuredContent: data }, tool, reply);
}

export function renderError(error: TuiError, tool: string, reply: ReplyOptions): CallToolResult {
  // Central bound on echoed input: whatever a thrower quoted, the rendered error stays short.
  const summary = errorSummary(error);
  const data: Record<string, unknown> = { error: summary };
  if (error.details) data.details = error.details;
  const text =
    reply.content === "json"
      ? `Error ${summary.code}: ` +
        `${summary.message}${summary.hint ? `\nFix: ${summary.hint}` : ""}\n` +
        `${JSON.stringify(data)}`
      : renderErrorText(summary, errorParts(error));
  return capReply({ isError: true, content: [{ type: "text", text }], structuredContent: data }, tool, reply);
}

/** A ReplyError names its parts; any other error's details are plain fields. */
function errorParts(error: TuiError): ReplyParts | undefined {
  if (error instanceof ReplyError) return error.parts;
  return error.details ? { fields: fieldsWithout(error.details) } : undefined;
}
