/**
 * An input tool's reply: its observe arguments and the server's default detail run through the engine's
 * observeInput (session/observe-input.ts), the outcome turned into reply parts.
 */
import type * as v from "valibot";
import { TuiError } from "../errors.ts";
import type { ObserveOptions, ScreenBlock } from "../session/observe.ts";
import { observeInput } from "../session/observe-input.ts";
import type { Session } from "../session/session.ts";
import type { ToolContext, ToolOutcome } from "./define.ts";
import { blockParts, fieldsWithout, mergeParts, ReplyError, type ReplyParts } from "./reply.ts";
import type { observeEntries } from "./schemas.ts";
import { waitLines, type WaitOutcome } from "./wait-lines.ts";

export type InputReplyArgs = v.InferOutput<v.StrictObjectSchema<typeof observeEntries, undefined>>;

export async function inputReply<R extends Record<string, unknown>>(
  session: Session,
  args: InputReplyArgs,
  ctx: ToolContext,
  action: () => Promise<R> | R,
  describe: (result: R) => string,
  /** Result fields the text leaves out (the summary says them, or they echo the request). */
  unlisted: string[] = [],
): Promise<ToolOutcome> {
  const options: ObserveOptions = {
    captureScreen: args.captureScreen,
    waitAfterMs: args.waitAfterMs,
    waitFor: args.waitFor,
    screenDetail: args.screenDetail ?? ctx.config.screenDetail,
    signal: ctx.signal,
  };
  try {
    const outcome = await observeInput(session, options, action, describe);
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
  const wait = data.waitFor as WaitOutcome | undefined;
  return mergeParts(
    { fields: fieldsWithout(data, "screen", "waitFor", ...unlisted) },
    wait ? { lines: waitLines(wait, "waitFor ") } : undefined,
    data.screen ? blockParts(data.screen as ScreenBlock, wait !== undefined && !wait.matched) : undefined,
  );
}
