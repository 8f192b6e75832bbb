/**
 * The quiet window: the settle used where the ready oracle cannot run (no /proc, /proc denied,
 * TUI_TESTER_READY=quiet), and wait_for_idle's mode "quiet". Wait up to FIRST_OUTPUT_MS for the app's
 * first output after the input, then until output has been quiet for ADAPTIVE_QUIET_MS, never longer
 * than MAX_SETTLE_MS in all.
 *
 * Why 100 ms of quiet (measured 2026-12-02, 2-core VM under load, bench/README.md): bash, python3,
 * vim, less and htop answer a key in one burst (largest gap between chunks 0-2 ms), so 20 ms was
 * enough for them, but an app that prints a second part 60 ms after the first lost it 8 of 8 times.
 * 100 ms catches gaps up to that size for ~80 ms more per input, small next to a model's round trip.
 */
import { cancelled } from "../errors.ts";
import type { Session } from "./session.ts";

/** How long the adaptive settle waits for the app to answer at all. */
export const FIRST_OUTPUT_MS = 150;
/** Output quiet this long counts as settled; also what `quiet` means in every settle mode. */
export const ADAPTIVE_QUIET_MS = 100;
/** Upper bound of the quiet-window settle, for apps that never go quiet (spinners, streams). */
export const MAX_SETTLE_MS = 500;

/** What the quiet window watches of a session. */
export type Watched = Pick<Session, "running" | "lastOutputAt" | "onOutput" | "onExit">;

/** No output for ADAPTIVE_QUIET_MS (or the program has exited). */
export function isQuiet(session: Watched): boolean {
  return !session.running || performance.now() - session.lastOutputAt >= ADAPTIVE_QUIET_MS;
}

/**
 * The quiet-window settle after an input made at `since`: up to FIRST_OUTPUT_MS for a first answer,
 * then until ADAPTIVE_QUIET_MS of quiet, at most MAX_SETTLE_MS after the input. With no answer the
 * quiet period is over already (FIRST_OUTPUT_MS > ADAPTIVE_QUIET_MS, quiet counted from `since`).
 */
export async function quietSettle(session: Watched, since: number, signal?: AbortSignal): Promise<void> {
  if (session.lastOutputAt <= since && session.running) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, FIRST_OUTPUT_MS);
      const unsubscribe = session.onOutput(done);
      const unsubscribeExit = session.onExit(done);
      function done() {
        clearTimeout(timer);
        unsubscribe();
        unsubscribeExit();
        resolve();
      }
    });
  }
  // Quiet is counted from the app's last output (never before the input), the whole settle bounded by MAX_SETTLE_MS.
  if (session.running)
    await quietPeriod(session, ADAPTIVE_QUIET_MS, MAX_SETTLE_MS, since, signal).catch(() => undefined);
}

/**
 * True once output has been quiet for `quietMs` since max(last output, `since`); false at `deadlineMs`
 * after `since`. Shared by wait_for_idle and the adaptive settle of input tools.
 */
export function quietPeriod(
  session: Pick<Watched, "lastOutputAt" | "onOutput">,
  quietMs: number,
  deadlineMs: number,
  since: number,
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise<boolean>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = since + deadlineMs;
    /** Only arm() ends the wait, and it has cleared the timer. */
    const end = (value: boolean) => {
      unsubscribe();
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const arm = () => {
      clearTimeout(timer);
      const now = performance.now();
      const quietSince = Math.max(session.lastOutputAt, since);
      const quietAt = quietSince + quietMs;
      if (quietAt <= now) return end(true);
      if (deadline <= now) return end(false);
      timer = setTimeout(arm, Math.min(quietAt, deadline) - now);
    };
    const onAbort = () => {
      clearTimeout(timer);
      unsubscribe();
      reject(cancelled("The wait"));
    };
    if (signal?.aborted) return reject(cancelled("The wait"));
    const unsubscribe = session.onOutput(arm);
    signal?.addEventListener("abort", onAbort); // an abort fires once; end() removes the listener
    arm();
  });
}
