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
import { missReason, shownPatterns } from "./wait-options.ts";

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
  const shown = wait && options.waitFor ? clip(shownPatterns({ ...options.waitFor, pattern: wait.pattern }), 200) : "";
  if (wait && !wait.matched && options.waitFor?.errorOnTimeout) {
    const why = wait.exited ? `: ${missReason(wait)}` : ` within ${wait.timeoutMs} ms on the ${wait.matchedAgainst}`;
    throw new TuiError(
      "WAIT_TIMEOUT",
      `${describe(observed.result)}, but ${shown} did not appear${why}.`,
      wait.exited
        ? "The screen it left is in details.screen; get_exit_info and get_raw_output tell more."
        : "The screen at the timeout is in details.screen; check the pattern, raise waitFor.timeoutMs, " +
            "or try matchScreen: false.",
      data,
    );
  }
  const missed = wait?.exited ? missReason(wait) : `timed out after ${wait?.timeoutMs} ms`;
  const which = wait?.matchedIndex !== undefined ? ` (anyOf[${wait.matchedIndex}])` : "";
  const waitNote = wait
    ? wait.matched
      ? `; ${JSON.stringify(clip(wait.pattern, 80))}${which} matched after ${wait.elapsedMs} ms`
      : `; ${shown} not seen (${missed})`
    : "";
  const diff = observed.screen?.diff;
  const changed = diff ? `; ${diff.identical ? "screen unchanged" : `${diff.changedLines.length} rows changed`}` : "";
  return { summary: `${describe(observed.result)}${waitNote}${changed}`, data };
}
