/**
 * Exit checks: wait (bounded) for the program to end, then compare its exit code or the signal that
 * killed it. Shared by run_script's expect_exit step and the bun:test matcher toHaveExited.
 */
import { cancelled, TuiError } from "../errors.ts";
import { describeExit, type ExitInfo } from "../session/exit-info.ts";
import type { Session } from "../session/session.ts";

export interface ExitExpectation {
  /** Expected exit code; 0 when neither code nor signal is given. */
  code?: number;
  /** Expected signal name ("SIGTERM" or "TERM"). */
  signal?: string;
  timeoutMs: number;
  abort?: AbortSignal;
}

export interface ExitOutcome {
  exit: ExitInfo;
  waitedMs: number;
}

/** "term" / "TERM" / "SIGTERM" -> "SIGTERM". */
export function signalName(signal: string): string {
  const upper = signal.toUpperCase();
  return upper.startsWith("SIG") ? upper : `SIG${upper}`;
}

/** What was expected, as a failure message says it. */
export function expectedExit(e: Pick<ExitExpectation, "code" | "signal">): string {
  return e.signal !== undefined ? `to be killed by ${signalName(e.signal)}` : `to exit with code ${e.code ?? 0}`;
}

/** Null when the exit is the expected one, else what differed ("expected exit code 0, got 2"). */
export function exitMismatch(e: Pick<ExitExpectation, "code" | "signal">, exit: ExitInfo): string | null {
  if (e.signal !== undefined) {
    const want = signalName(e.signal);
    return exit.signal === want ? null : `expected the program to be killed by ${want}, got ${describeExit(exit)}`;
  }
  const want = e.code ?? 0;
  if (exit.signal === null && exit.exitCode === want) return null;
  return `expected exit code ${want}, got ${exit.signal !== null ? `killed by ${exit.signal}` : exit.exitCode}`;
}

/** The exit, once the process has ended and its last output is on screen; null when timeoutMs passed first. */
export async function awaitExit(session: Session, timeoutMs: number, abort?: AbortSignal): Promise<ExitOutcome | null> {
  const started = performance.now();
  if (abort?.aborted) throw cancelled("The exit wait");
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const ended = await Promise.race([
    session.whenExited(),
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutMs);
    }),
    new Promise<"aborted">((resolve) => {
      onAbort = () => resolve("aborted");
      abort?.addEventListener("abort", onAbort, { once: true });
    }),
  ]).finally(() => {
    clearTimeout(timer);
    if (onAbort) abort?.removeEventListener("abort", onAbort);
  });
  if (ended === "aborted") throw cancelled("The exit wait");
  return ended === null ? null : { exit: ended, waitedMs: Math.round(performance.now() - started) };
}

/** Wait for the exit and check it; throws ASSERTION_FAILED naming what differed (the screen is the caller's to show). */
export async function expectExit(session: Session, e: ExitExpectation): Promise<ExitOutcome> {
  const outcome = await awaitExit(session, e.timeoutMs, e.abort);
  if (outcome === null) {
    throw new TuiError(
      "ASSERTION_FAILED",
      `The program was still running after ${e.timeoutMs} ms; expected it ${expectedExit(e)}.`,
      "Send the input that ends it first (its quit key, exit, Ctrl-D), or raise timeoutMs.",
      { exited: false, waitedMs: e.timeoutMs },
    );
  }
  const mismatch = exitMismatch(e, outcome.exit);
  if (mismatch !== null) {
    throw new TuiError(
      "ASSERTION_FAILED",
      `The program ended with ${describeExit(outcome.exit)}: ${mismatch}.`,
      "Its last screen is shown with this failure.",
      { exited: true, exitCode: outcome.exit.exitCode, signal: outcome.exit.signal, waitedMs: outcome.waitedMs },
    );
  }
  return outcome;
}
