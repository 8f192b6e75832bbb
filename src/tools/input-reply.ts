/**
 * An input tool's reply: its observe arguments and the server's default detail run through the engine's
 * observeInput (session/observe-input.ts), the outcome turned into reply parts.
 */
import type * as v from "valibot";
import type { ObserveOptions } from "../session/observe.ts";
import { type InputData, InputWaitTimeout, observeInput } from "../session/observe-input.ts";
import type { Session } from "../session/session.ts";
import type { ToolContext, ToolData, ToolOutcome } from "./define.ts";
import { blockParts, fieldsWithout, mergeParts, ReplyError, type ReplyParts, sinceShownParts } from "./reply.ts";
import { lastShown, noteShown, type ShownScreen } from "./shown-screen.ts";
import type { observeEntries } from "./schemas.ts";
import { waitLines } from "./wait-lines.ts";

export type InputReplyArgs = v.InferOutput<v.StrictObjectSchema<typeof observeEntries, undefined>>;

export async function inputReply<R extends Record<string, unknown>>(
  session: Session,
  args: InputReplyArgs,
  ctx: ToolContext,
  action: () => Promise<R> | R,
  describe: (result: R) => string,
  /** Result fields the text leaves out (the summary says them, or they echo the request). */
  unlisted: string[] = [],
): Promise<ToolOutcome<InputData<R>>> {
  const detail = args.screenDetail ?? ctx.config.screenDetail;
  const options: ObserveOptions = {
    captureScreen: args.captureScreen,
    waitAfterMs: args.waitAfterMs,
    waitFor: args.waitFor,
    // auto is a way of printing the full block: the engine captures both screens either way.
    screenDetail: detail === "diff" ? "diff" : "full",
    signal: ctx.signal,
  };
  const shown = detail === "auto" ? lastShown(session) : undefined;
  try {
    const outcome = await observeInput(session, options, action, describe);
    return { ...outcome, parts: inputParts(session, outcome.data, unlisted, shown) };
  } catch (error) {
    // A missed waitFor with errorOnTimeout: the error shows the screen at the timeout, as a reply would.
    if (!(error instanceof InputWaitTimeout)) throw error;
    const parts = inputParts(session, error.data, unlisted, undefined);
    throw new ReplyError(error.code, error.message, error.hint ?? "", error.data, parts);
  }
}

/**
 * An input's parts: its own fields, the inline wait's match, then settle, changed rows and screen;
 * with `shown` (screenDetail auto) the rows changed since that screen when they are few. A missed wait's
 * error passes no `shown`.
 */
function inputParts(
  session: Session,
  data: InputData<ToolData>,
  unlisted: string[],
  shown: ShownScreen | undefined,
): ReplyParts {
  const wait = data.waitFor;
  const block = data.screen;
  const waitMissed = wait !== undefined && !wait.matched;
  // A wait that missed shows the whole screen: the model looks there for why.
  const since = shown && !waitMissed && block ? sinceShownParts(block, shown) : undefined;
  const screenParts = block && (since ?? blockParts(block, waitMissed));
  // Either way the model now has the after-screen: printed, or as changes to the one it had.
  if (block?.after) noteShown(session, block.after);
  return mergeParts(
    { fields: fieldsWithout(data, "screen", "waitFor", ...unlisted) },
    wait ? { lines: waitLines(wait, "waitFor ") } : undefined,
    screenParts,
  );
}
