/** An input tool's observe options (its arguments and the server's default detail) -> lib/observed.ts. */
import * as v from "valibot";
import { observeInput } from "../lib/observed.ts";
import type { Session } from "../session/session.ts";
import type { ToolContext, ToolOutcome } from "./define.ts";
import type { observeEntries } from "./schemas.ts";

export type ObserveArgs = v.InferOutput<v.StrictObjectSchema<typeof observeEntries, undefined>>;

export function runObserved<R extends Record<string, unknown>>(
  session: Session,
  args: ObserveArgs,
  ctx: ToolContext,
  action: () => Promise<R> | R,
  describe: (result: R) => string,
): Promise<ToolOutcome> {
  const options = { captureScreen: args.captureScreen, waitAfterMs: args.waitAfterMs, waitFor: args.waitFor };
  return observeInput(session, { ...options, screenDetail: args.screenDetail ?? ctx.config.screenDetail, signal: ctx.signal }, action, describe);
}
