/** What a settle of the ready oracle reports, and what it keeps from before an input (oracle.ts). */
import type { BusyState } from "./classify.ts";
import type { Look } from "./reading.ts";

export type SettledBy = "idle" | "periodic" | "unsure" | "quiet" | "timeout" | "exit" | "waitFor" | "fixed";

/**
 * How a settle that found the program back at rest reports it: idle; periodic (at rest, redrawing on
 * a timer of a second or more); unsure (at rest on a tick of `tickMs` < 1 s, behind which work due
 * later cannot be seen: the settle does not claim the screen is done). A settle's outcome may also be
 * unsure with `busy` in a timer: at rest but for timers due after its cap (far-timers.ts).
 */
export interface AtRest {
  settledBy: "idle" | "periodic" | "unsure";
  tickMs?: number;
  /** unsure: what may wake it that no wait shows, in words (signal-timers.ts ALARM_UNSEEN). */
  unseen?: string;
}

export interface Busy {
  pid: number;
  command: string;
  state: BusyState;
  /** The timeout of the timed wait it is in (the length it asked for), when known. */
  timerDueMs?: number;
}

export interface ReadyOutcome {
  settledBy: SettledBy;
  /** The program that was judged: the foreground group's leader. */
  program?: string;
  busy?: Busy;
  /** unsure: the period of the tick the program rests on. */
  tickMs?: number;
  /** unsure: what may wake it that no wait shows, in words. */
  unseen?: string;
  /** /proc reads this settle made, and the time they took. */
  procReads: number;
  procMs: number;
}

/** Before an input: what the program looked like. */
export interface Baseline {
  look: Look;
  bytesOut: number;
  lastOutputAt: number;
  /** The oracle's count of bytes the terminal may have echoed for inputs (echo-budget.ts) at the baseline. */
  echoedAt: number;
}
