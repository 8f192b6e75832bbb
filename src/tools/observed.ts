/** An input tool's observe options (its arguments and the server's default detail) -> lib/observed.ts. */
import type * as v from "valibot";
import { TuiError } from "../errors.ts";
import { observeInput } from "../lib/observed.ts";
import type { ScreenBlock } from "../session/observe.ts";
import type { Session } from "../session/session.ts";
import type { ToolContext, ToolOutcome } from "./define.ts";
import { blockParts, fieldsWithout, mergeParts, ReplyError, type ReplyParts } from "./reply.ts";
import type { observeEntries } from "./schemas.ts";

export type ObserveArgs = v.InferOutput<v.StrictObjectSchema<typeof observeEntries, undefined>>;

export async function runObserved<R extends Record<string, unknown>>(
  session: Session,
  args: ObserveArgs,
  ctx: ToolContext,
  action: () => Promise<R> | R,
  describe: (result: R) => string,
  /** Result fields the text leaves out (the summary says them, or they echo the request). */
  unlisted: string[] = [],
): Promise<ToolOutcome> {
  const options = { captureScreen: args.captureScreen, waitAfterMs: args.waitAfterMs, waitFor: args.waitFor };
  try {
    const screenDetail = args.screenDetail ?? ctx.config.screenDetail;
    const outcome = await observeInput(session, { ...options, screenDetail, signal: ctx.signal }, action, describe);
    return { ...outcome, parts: inputParts(outcome.data, unlisted) };
  } catch (error) {
    // A missed waitFor with errorOnTimeout: the error shows the screen at the timeout, as a reply would.
    if (!(error instanceof TuiError) || error.code !== "WAIT_TIMEOUT" || !error.details) throw error;
    const parts = inputParts(error.details, unlisted);
    throw new ReplyError(error.code, error.message, error.hint ?? "", error.details, parts);
  }
}

/** An input's parts: its own fields, the inline wait's match, then settle, changed rows and screen. */
function inputParts(data: Record<string, unknown>, unlisted: string[]): ReplyParts {
  const wait = data.waitFor as { matched: boolean; match?: unknown; pattern: string } | undefined;
  return mergeParts(
    { fields: fieldsWithout(data, "screen", "waitFor", ...unlisted) },
    wait ? { lines: matchLines(wait, "waitFor ") } : undefined,
    data.screen ? blockParts(data.screen as ScreenBlock, false, wait !== undefined && !wait.matched) : undefined,
  );
}

/** The matched text when it says more than the pattern (a regex's match, say). */
export function matchLines(wait: { matched: boolean; match?: unknown; pattern: string }, prefix = ""): string[] {
  if (!wait.matched || wait.match === undefined || wait.match === null || wait.match === wait.pattern) return [];
  return [`${prefix}match: ${JSON.stringify(wait.match)}`];
}
