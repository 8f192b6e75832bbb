/** validate -> run -> render. Never throws: every failure becomes an isError result. */
import * as v from "valibot";
import { toTuiError, TuiError } from "../errors.ts";
import { log } from "../util/log.ts";
import type { ToolContext, ToolDef } from "./define.ts";
import { renderError, renderOutcome } from "./render.ts";

export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join("; ");
}

export async function dispatch(tool: ToolDef, rawArgs: unknown, ctx: Omit<ToolContext, "rawArgs">) {
  try {
    const parsed = v.safeParse(tool.input, rawArgs ?? {});
    if (!parsed.success) {
      throw new TuiError("INVALID_ARGUMENT", `Invalid arguments for ${tool.name}: ${describeIssues(parsed.issues)}.`, `See the ${tool.name} input schema in tools/list.`);
    }
    return renderOutcome(await tool.run(parsed.output, { ...ctx, rawArgs }), tool.name);
  } catch (thrown) {
    const error = toTuiError(thrown);
    if (error.code === "INTERNAL") log(`internal error in ${tool.name}:`, thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown));
    return renderError(error, tool.name);
  }
}
