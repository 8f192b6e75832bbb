/**
 * An input run under observe(): the before/after screens, their diff, the settle facts and an
 * inline wait, turned into a summary and a result. Every input tool and every `Terminal` input
 * goes through here, so both report the same facts.
 */
import { TuiError } from "../errors.ts";
import { observe, type ScreenDetail } from "../session/observe.ts";
import type { Session } from "../session/session.ts";
import type { WaitTextOptions } from "../session/wait.ts";
import { clip } from "../util/clip.ts";

export interface ObserveInputOptions {
  /** false: no before/after screens and no diff. */
  captureScreen: boolean;
  /** Fixed settle in ms; undefined = adaptive (session/observe.ts). */
  waitAfterMs?: number;
  /** Wait for this text after the input; with errorOnTimeout a miss throws WAIT_TIMEOUT. */
  waitFor?: WaitTextOptions & { errorOnTimeout?: boolean };
  screenDetail: ScreenDetail;
  signal?: AbortSignal;
}

export interface InputOutcome {
  summary: string;
  data: Record<string, unknown>;
}

export async function observeInput<R extends Record<string, unknown>>(
  session: Session,
  options: ObserveInputOptions,
  action: () => Promise<R> | R,
  describe: (result: R) => string,
): Promise<InputOutcome> {
  const observed = await observe(session, action, {
    captureScreen: options.captureScreen,
    waitAfterMs: options.waitAfterMs,
    waitFor: options.waitFor,
    screenDetail: options.screenDetail,
    signal: options.signal,
  });
  const data: Record<string, unknown> = { sessionId: session.id, ...observed.result };
  if (observed.screen) data.screen = observed.screen;
  if (observed.waitFor) data.waitFor = observed.waitFor;
  const wait = observed.waitFor;
  if (wait && !wait.matched && options.waitFor?.errorOnTimeout) {
    const exited = wait.exited ? " (the process exited)" : "";
    throw new TuiError(
      "WAIT_TIMEOUT",
      `${describe(observed.result)}, but "${wait.pattern}" did not appear on the ${wait.matchedAgainst} ` +
        `within ${wait.timeoutMs} ms${exited}.`,
      "The screen at the timeout is in details.screen; check the pattern, raise waitFor.timeoutMs, " +
        "or try matchScreen: false.",
      data,
    );
  }
  const pattern = JSON.stringify(clip(wait?.pattern ?? "", 80));
  const missed = wait?.exited ? "process exited" : `timed out after ${wait?.timeoutMs} ms`;
  const waitNote = wait
    ? wait.matched
      ? `; ${pattern} matched after ${wait.elapsedMs} ms`
      : `; ${pattern} not seen (${missed})`
    : "";
  const diff = observed.screen?.diff;
  const changed = diff ? `; ${diff.identical ? "screen unchanged" : `${diff.changedLines.length} rows changed`}` : "";
  return { summary: `${describe(observed.result)}${waitNote}${changed}`, data };
}
