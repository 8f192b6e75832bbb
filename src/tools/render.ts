/**
 * The one renderer. content: a compact text view for the model (render-text.ts), or the summary and
 * JSON when TUI_TESTER_CONTENT=json. structuredContent, the full result contract, only with
 * TUI_TESTER_OUTPUT=structured: a client that gets both hands the model one of them (Claude Code and
 * Codex the JSON, opencode the text) or both (Copilot CLI), so by default the text is the only copy.
 * Bounded by reply-cap.ts.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { TuiError } from "../errors.ts";
import type { ToolOutcome } from "./define.ts";
import { errorSummary } from "../util/clip.ts";
import { capReply, capTextReply, type ReplyLimit } from "./reply-cap.ts";
import { renderErrorText, renderText } from "./render-text.ts";
import { defaultParts, errorParts } from "./reply.ts";

/** How replies are written: the content form (TUI_TESTER_CONTENT), the channels (TUI_TESTER_OUTPUT), the size cap. */
export interface ReplyOptions extends ReplyLimit {
  content: "text" | "json";
  output: "text" | "structured";
}

type ErrorLine = { code: string; message: string; hint?: string };

/** The error's code, message and fix, which every content form starts with. */
const errorHead = (error: ErrorLine) =>
  `Error ${error.code}: ${error.message}${error.hint ? `\nFix: ${error.hint}` : ""}`;

export function renderOutcome(outcome: ToolOutcome, tool: string, reply: ReplyOptions): CallToolResult {
  const data = outcome.error ? { ...outcome.data, error: outcome.error } : outcome.data;
  const parts = defaultParts(outcome);
  const isError = outcome.isError || outcome.error !== undefined;
  const failure = isError && !outcome.error ? outcome.failure : undefined;
  const text =
    reply.content === "json"
      ? `${outcome.error ? `${errorHead(outcome.error)}\n` : ""}${failure ? `${errorHead(failure)}\n` : ""}` +
        `${outcome.summary}\n${JSON.stringify(data)}`
      : outcome.error
        ? renderErrorText(outcome.error, parts)
        : `${failure ? `${errorHead(failure)}\n` : ""}${renderText(outcome.summary, parts)}`;
  const content = [{ type: "text" as const, text }, ...(outcome.extraContent ?? [])];
  return deliver({ ...(isError ? { isError: true } : {}), content }, data, tool, reply);
}

export function renderError(error: TuiError, tool: string, reply: ReplyOptions): CallToolResult {
  // Central bound on echoed input: whatever a thrower quoted, the rendered error stays short.
  const summary = errorSummary(error);
  const data: Record<string, unknown> = { error: summary };
  if (error.details) data.details = error.details;
  const text =
    reply.content === "json"
      ? `${errorHead(summary)}\n${JSON.stringify(data)}`
      : renderErrorText(summary, errorParts(error));
  return deliver({ isError: true, content: [{ type: "text", text }] }, data, tool, reply);
}

/** The result in the configured channels, within the size cap. */
function deliver(
  result: Pick<CallToolResult, "isError" | "content">,
  data: Record<string, unknown>,
  tool: string,
  reply: ReplyOptions,
): CallToolResult {
  if (reply.output === "structured") return capReply({ ...result, structuredContent: data }, tool, reply);
  return capTextReply(result, data, tool, reply);
}
