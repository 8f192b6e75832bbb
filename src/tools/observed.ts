/** Runs an input under observe() and turns the result into a tool outcome (shared by all input tools). */
import * as v from "valibot";
import { clip } from "../util/clip.ts";
import { observe, type ScreenDetail } from "../session/observe.ts";
import type { Session } from "../session/session.ts";
import type { ToolContext, ToolOutcome } from "./define.ts";
import { blockParts, fieldsWithout, mergeParts, ReplyError } from "./reply.ts";
import type { observeEntries } from "./schemas.ts";

export type ObserveArgs = v.InferOutput<v.StrictObjectSchema<typeof observeEntries, undefined>>;

export async function runObserved(
  session: Session,
  args: ObserveArgs,
  ctx: ToolContext,
  action: () => Promise<Record<string, unknown>> | Record<string, unknown>,
  describe: (result: Record<string, unknown>) => string,
  /** Result fields the text leaves out (the summary says them, or they echo the request). */
  unlisted: string[] = [],
): Promise<ToolOutcome> {
  const screenDetail: ScreenDetail = args.screenDetail ?? ctx.config.screenDetail;
  const observed = await observe(session, action, {
    captureScreen: args.captureScreen,
    waitAfterMs: args.waitAfterMs,
    waitFor: args.waitFor,
    screenDetail,
    signal: ctx.signal,
  });
  const data: Record<string, unknown> = { sessionId: session.id, ...observed.result };
  if (observed.screen) data.screen = observed.screen;
  if (observed.waitFor) data.waitFor = observed.waitFor;
  const wait = observed.waitFor;
  const parts = mergeParts(
    { fields: fieldsWithout(observed.result, ...unlisted) },
    wait ? { lines: matchLines(wait, "waitFor ") } : undefined,
    observed.screen ? blockParts(observed.screen) : undefined,
  );
  if (wait && !wait.matched && args.waitFor?.errorOnTimeout) {
    throw new ReplyError(
      "WAIT_TIMEOUT",
      `${describe(observed.result)}, but "${wait.pattern}" did not appear on the ${wait.matchedAgainst} within ${wait.timeoutMs} ms${wait.exited ? " (the process exited)" : ""}.`,
      "The screen at the timeout is in details.screen; check the pattern, raise waitFor.timeoutMs, or try matchScreen: false.",
      data,
      parts,
    );
  }
  const pattern = JSON.stringify(clip(wait?.pattern ?? "", 80));
  const waitNote = wait ? (wait.matched ? `; ${pattern} matched after ${wait.elapsedMs} ms` : `; ${pattern} not seen (${wait.exited ? "process exited" : `timed out after ${wait.timeoutMs} ms`})`) : "";
  const changed = observed.screen ? `; ${observed.screen.diff.identical ? "screen unchanged" : `${observed.screen.diff.changedLines.length} rows changed`}` : "";
  return { summary: `${describe(observed.result)}${waitNote}${changed}`, data, parts };
}

/** The matched text when it says more than the pattern (a regex's match, say). */
export function matchLines(wait: { matched: boolean; match?: unknown; pattern: string }, prefix = ""): string[] {
  if (!wait.matched || wait.match === undefined || wait.match === null || wait.match === wait.pattern) return [];
  return [`${prefix}match: ${JSON.stringify(wait.match)}`];
}
