/**
 * wait_for_idle's wait: the program back at rest (the ready oracle) or its output quiet for a while.
 * Event-driven like the text waits in wait.ts.
 */
import { quietPeriod } from "./quiet-window.ts";
import { readyOracle, type Busy, type SettledBy } from "./ready/oracle.ts";
import type { Session } from "./session.ts";

export interface WaitIdleResult {
  idle: boolean;
  timedOut: boolean;
  idleMs: number;
  timeoutMs: number;
  elapsedMs: number;
  /** Bytes the app wrote during the wait. */
  bytesDuringWait: number;
  /** How long the program had written nothing when the wait returned, in ms (the original's field). */
  idleFor: number;
  /** idle, periodic, unsure, exit, timeout (the ready oracle), or quiet (the output window). */
  settledBy: SettledBy;
  /** unsure: the period of the tick the program rests on. */
  tickMs?: number;
  /** unsure: what may wake the program that no wait shows, in words. */
  unseen?: string;
  program?: string;
  busy?: Busy;
  /** Why mode idle used the quiet window instead. */
  fallback?: string;
}

export type IdleMode = "idle" | "quiet";

/**
 * mode "idle": resolves once the program is at rest (the ready oracle, as input tools settle) and its
 * output is parsed; where the oracle cannot run, as mode "quiet".
 * mode "quiet": resolves once no output has arrived for `idleMs`, counting from the later of the last
 * output and the start of the wait (so a wait right after an input always gives the app `idleMs` to answer).
 */
export async function waitForIdle(
  session: Session,
  options: { idleMs: number; timeoutMs: number; mode?: IdleMode },
  signal?: AbortSignal,
): Promise<WaitIdleResult> {
  const started = performance.now();
  const bytesAtStart = session.bytesOut;
  const result = (
    idle: boolean,
    settled: Pick<WaitIdleResult, "settledBy" | "program" | "busy" | "fallback" | "tickMs" | "unseen">,
  ): WaitIdleResult => ({
    idle,
    // unsure is not idle (the program may still have work behind its tick), but no timeout either.
    timedOut: !idle && settled.settledBy !== "unsure",
    idleMs: options.idleMs,
    timeoutMs: options.timeoutMs,
    elapsedMs: Math.round(performance.now() - started),
    bytesDuringWait: session.bytesOut - bytesAtStart,
    idleFor: Math.round(performance.now() - session.lastOutputAt),
    ...settled,
  });
  const oracle = readyOracle(session);
  let fallback: string | undefined;
  if ((options.mode ?? "idle") === "idle" && session.running) {
    const ready = oracle.available ? await oracle.settle(undefined, started, options.timeoutMs, signal) : undefined;
    if (ready !== undefined && ready.settledBy !== "quiet") {
      const { settledBy, program, busy, tickMs, unseen } = ready;
      return result(settledBy !== "timeout" && settledBy !== "unsure", {
        settledBy,
        ...(program ? { program } : {}),
        ...(busy ? { busy } : {}),
        ...(tickMs !== undefined ? { tickMs } : {}),
        ...(unseen !== undefined ? { unseen } : {}),
      });
    }
    fallback = oracle.unavailable ?? "the oracle could not run";
  }
  const idle = await quietPeriod(session, options.idleMs, options.timeoutMs, started, signal);
  await session.emulator.flushed();
  const settledBy: SettledBy = !session.running ? "exit" : idle ? "quiet" : "timeout";
  return result(idle, { settledBy, ...(fallback ? { fallback } : {}) });
}
