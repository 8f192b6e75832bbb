/** validate -> run -> render. Never throws: every failure becomes an isError result. */
import * as v from "valibot";
import { toTuiError, TuiError } from "../errors.ts";
import { log } from "../util/log.ts";
import { applyCompat, describeIssues } from "./args.ts";
import type { ToolContext, ToolDef } from "./define.ts";
import { renderError, renderOutcome, type ReplyOptions } from "./render.ts";

export async function dispatch(tool: ToolDef, rawArgs: unknown, ctx: Omit<ToolContext, "rawArgs">) {
  try {
    const args = applyCompat(tool.compat, rawArgs ?? {});
    const parsed = v.safeParse(tool.input, args);
    if (!parsed.success) {
      throw new TuiError(
        "INVALID_ARGUMENT",
        `Invalid arguments for ${tool.name}: ${describeIssues(parsed.issues, tool.input)}.`,
        `See the ${tool.name} input schema in tools/list.`,
      );
    }
    return renderOutcome(await tool.run(parsed.output, { ...ctx, rawArgs: args }), tool.name, replyOptions(ctx));
  } catch (thrown) {
    const error = toTuiError(thrown);
    if (error.code === "INTERNAL")
      log(
        `internal error in ${tool.name}:`,
        thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown),
      );
    return renderError(error, tool.name, replyOptions(ctx));
  }
}

const replyOptions = (ctx: Omit<ToolContext, "rawArgs">): ReplyOptions => ({
  content: ctx.config.content,
  output: ctx.config.output,
  maxBytes: ctx.config.maxReplyBytes,
  spills: ctx.spills,
});
