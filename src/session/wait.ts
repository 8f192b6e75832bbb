/**
 * Event-driven waits: for text (text-wait.ts), for the program to be idle (wait-idle.ts), for the
 * screen's next change.
 */
import type { Session } from "./session.ts";
import { TextWait } from "./text-wait.ts";
import type { WaitTextOptions, WaitTextResult } from "./wait-spec.ts";

export {
  compileAll,
  exitPhrase,
  MAX_ANY_OF,
  type WaitTextOptions,
  type WaitTextResult,
  waitPatterns,
} from "./wait-spec.ts";

/** Wait until the text (or one of anyOf) shows, the program exits, or the timeout; see text-wait.ts. */
export async function waitForText(
  session: Session,
  options: WaitTextOptions,
  signal?: AbortSignal,
): Promise<WaitTextResult> {
  return new TextWait(session, options, signal).run();
}

export { quietPeriod } from "./quiet-window.ts";
export { waitForIdle, type IdleMode, type WaitIdleResult } from "./wait-idle.ts";

/** Resolves on the screen's next parsed write, synchronized-update release or exit, or after timeoutMs. */
export function nextScreenChange(session: Session, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  return new Promise((done) => {
    const cleanups: (() => void)[] = [];
    const finish = () => {
      for (const cleanup of cleanups) cleanup();
      done();
    };
    cleanups.push(session.emulator.onParsed(finish), session.emulator.onSyncRelease(finish), session.onExit(finish));
    const timer = setTimeout(finish, timeoutMs);
    cleanups.push(() => clearTimeout(timer));
    if (signal) {
      signal.addEventListener("abort", finish, { once: true });
      cleanups.push(() => signal.removeEventListener("abort", finish));
    }
  });
}
