/**
 * The phase rule of the ready oracle (docs/ready-oracle.md): a periodic loop's timed waits judged by
 * where they end against the grid of its wake-ups. Pure: rest-model.ts keeps the rest and the phase.
 */
import { newOneShot, type RestWait, type ThreadActivity, type Verdict } from "./classify.ts";

/**
 * A periodic loop's wake-ups fall on a grid: after an input it goes back to the rest of its current
 * period (its wait ends when the period's would have), and from a wake-up it waits a full period. A
 * loop's wait ends at its nearest timer, so a timer the input set that is due before the tick ends
 * the wait before the grid point pending when it went to sleep. A wait ending at that point or later
 * set no such timer: it may end later than the grid by the time the loop took between computing its
 * timeout and sleeping (9 ms for bun after 200 ms of work; more under load), up to a tenth of the
 * period or GRID_LATE_MS; and this much earlier (timeouts rounded to the ms).
 */
export const GRID_LATE_MS = 5;
const GRID_LATE_SHARE = 0.1;
const GRID_EARLY_MS = 2;
/** A wait at least this share of the rest's period, less 5 ms, is a full period: the loop re-armed. */
const FULL_PERIOD = 0.9;
/** How late a periodic loop's wait of `periodMs` may end against its grid, and still be on it. */
function gridLateMs(periodMs: number): number {
  return Math.max(GRID_LATE_MS, periodMs * GRID_LATE_SHARE);
}

/**
 * The verdict on a timed wait of a thread whose rest is the periodic wait `rest` with its last
 * wake-up at `phase` (ms of the scheduler's clock): rest when the wait is a full period from a
 * wake-up or ends on the grid point pending when it went to sleep; a timer when it ends before that.
 * Undefined when the phase does not apply (no phase or deadline, another wait, a period too short).
 */
export function onGrid(a: ThreadActivity, rest: RestWait | undefined, phase: number | undefined): Verdict | undefined {
  if (a.kind !== "wait" || a.deadline === undefined || a.timeoutMs === undefined || phase === undefined)
    return undefined;
  if (rest?.timeoutMs === undefined || !rest.timed || rest.nr !== a.nr) return undefined;
  // A timerfd armed since the rest is in the set: the wait ends on the grid only if it does not fire.
  if (newOneShot(a, rest)) return undefined;
  const period = rest.timeoutMs;
  if (period <= GRID_LATE_MS + GRID_EARLY_MS || a.timeoutMs > period * 2 + 20) return undefined;
  const full = a.timeoutMs >= period * FULL_PERIOD - 5;
  const lateMs = gridLateMs(period);
  // The grid point pending when it went to sleep: the first after that moment (a loop that just woke
  // at a tick has the next one pending, and a timer it sets now ends before that one). A grid point
  // is a deadline read as late as a wait's may be, so a loop asleep again up to that much before it
  // woke for it: else a timer it set at the tick (bun's setTimeout(150), 54 ms to go) ends "on" it.
  const sleptAt = a.deadline - a.timeoutMs;
  const pending = phase + (Math.floor((sleptAt + lateMs - phase) / period) + 1) * period;
  const late = a.deadline - pending;
  const grid = late >= -GRID_EARLY_MS && late <= lateMs;
  if (full || grid) return { rest: true, waitsForInput: a.waitKind === "input", timed: true };
  return { rest: false, state: "timer", timerDueMs: a.timeoutMs, call: a.call };
}
