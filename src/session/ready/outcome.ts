/** What a settle of the ready oracle reports, and what it keeps from before an input (oracle.ts). */
import type { BusyState } from "./classify.ts";
import type { Look } from "./reading.ts";

export type SettledBy = "idle" | "periodic" | "quiet" | "timeout" | "exit" | "waitFor" | "fixed";

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
  /** /proc reads this settle made, and the time they took. */
  procReads: number;
  procMs: number;
}

/** Before an input: what the program looked like. */
export interface Baseline {
  look: Look;
  bytesOut: number;
  lastOutputAt: number;
}
