/**
 * The one renderer. content: a compact text view for the model (render-text.ts), or the summary and
 * JSON when TUI_TESTER_CONTENT=json. structuredContent: the full result contract. Both bounded
 * by reply-cap.ts.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TuiError } from "../errors.ts";
import type { ToolOutcome } from "./define.ts";
import { clipMessage } from "../util/clip.ts";
import { capReply } from "./reply-cap.ts";
import { renderErrorText, renderText } from "./render-text.ts";
import { fieldsWithout, ReplyError, type ReplyParts } from "./reply.ts";

const jsonContent = () => process.env.TUI_TESTER_CONTENT === "json";

export function renderOutcome(outcome: ToolOutcome, tool = "result"): CallToolResult {
  const data = outcome.error ? { ...outcome.data, error: outcome.error } : outcome.data;
  const parts = outcome.parts ?? { fields: fieldsWithout(outcome.data) };
  const text = jsonContent()
    ? `${outcome.summary}\n${JSON.stringify(data)}`
    : outcome.error
      ? renderErrorText(outcome.error, parts)
      : renderText(outcome.summary, parts);
  const isError = outcome.isError || outcome.error !== undefined;
  return capReply({ ...(isError ? { isError: true } : {}), content: [{ type: "text", text }, ...(outcome.extraContent ?? [])], structuredContent: data }, tool);
}

export function renderError(error: TuiError, tool = "error"): CallToolResult {
  // Central bound on echoed input: whatever a thrower quoted, the rendered error stays short.
  const summary = { code: error.code, message: clipMessage(error.message), ...(error.hint ? { hint: clipMessage(error.hint) } : {}) };
  const data: Record<string, unknown> = { error: summary };
  if (error.details) data.details = error.details;
  const text = jsonContent()
    ? `Error ${summary.code}: ${summary.message}${summary.hint ? `\nFix: ${summary.hint}` : ""}\n${JSON.stringify(data)}`
    : renderErrorText(summary, errorParts(error));
  return capReply({ isError: true, content: [{ type: "text", text }], structuredContent: data }, tool);
}

/** A ReplyError names its parts; any other error's details are plain fields. */
function errorParts(error: TuiError): ReplyParts | undefined {
  if (error instanceof ReplyError) return error.parts;
  return error.details ? { fields: fieldsWithout(error.details) } : undefined;
}
