/**
 * An input run under observe(): the before/after screens, their diff, the settle facts and an
 * inline wait, turned into a summary and a result. Every input tool and every `Terminal` input
 * goes through here, so both report the same facts.
 */
import { TuiError } from "../errors.ts";
import { clip } from "../util/clip.ts";
import { observe, type ObserveOptions, type ScreenBlock } from "./observe.ts";
import type { Session } from "./session.ts";
import type { WaitTextResult } from "./wait.ts";
import { notSeenReason, shownPatterns, waitTimeoutError } from "./wait-miss.ts";

/** An input's result: its session, what the action returned, the screen block and the inline wait. */
export type InputData<R> = { sessionId: string } & R & {
    screen?: ScreenBlock;
    waitFor?: Omit<WaitTextResult, "snapshot">;
  };

export interface InputOutcome<R> {
  summary: string;
  data: InputData<R>;
}

/** WAIT_TIMEOUT of an input's waitFor (errorOnTimeout): the input's whole result is its details, typed. */
export class InputWaitTimeout extends TuiError {
  constructor(
    error: TuiError,
    readonly data: InputData<Record<string, unknown>>,
  ) {
    super(error.code, error.message, error.hint, data);
  }
}

export async function observeInput<R extends Record<string, unknown>>(
  session: Session,
  options: ObserveOptions,
  action: () => Promise<R> | R,
  describe: (result: R) => string,
): Promise<InputOutcome<R>> {
  const observed = await observe(session, action, options);
  const data: InputData<R> = {
    sessionId: session.id,
    ...observed.result,
    ...(observed.screen ? { screen: observed.screen } : {}),
    ...(observed.waitFor ? { waitFor: observed.waitFor } : {}),
  };
  const wait = observed.waitFor;
  const shown = wait && options.waitFor ? clip(shownPatterns({ ...options.waitFor, pattern: wait.pattern }), 200) : "";
  if (wait && !wait.matched && options.waitFor?.errorOnTimeout) {
    // Where the screen is: quoted in the message (a library test failure), or in the reply below the error.
    const where = options.quoteScreen ? "above" : "below";
    const exitInfo = options.quoteScreen ? "exitInfo() and raw()" : "get_exit_info and get_raw_output";
    const after = observed.screen?.after;
    const error = waitTimeoutError(wait, {
      before: `${describe(observed.result)}, but `,
      shown,
      hint: {
        exited: `The screen it left is ${where}; ${exitInfo} tell more.`,
        timeout:
          `The screen at the timeout is ${where}; check the pattern, raise waitFor.timeoutMs, ` +
          "or try matchScreen: false.",
      },
      ...(options.quoteScreen && after ? { screen: after.text } : {}),
    });
    throw new InputWaitTimeout(error, data);
  }
  const which = wait?.matchedIndex !== undefined ? ` (anyOf[${wait.matchedIndex}])` : "";
  // With a screen block its settle says when the text was seen, and its diff what changed.
  const when = observed.screen ? "" : ` after ${wait?.elapsedMs} ms`;
  const waitNote = wait
    ? wait.matched
      ? `; ${JSON.stringify(clip(wait.pattern, 80))}${which} matched${when}`
      : `; ${shown} not seen (${notSeenReason(wait)})`
    : "";
  return { summary: `${describe(observed.result)}${waitNote}`, data };
}
