/**
 * The first settle of a program that has a signal timer no wait shows (signal-timers.ts) is held: a
 * program back at rest is watched for HIDDEN_TIMER_WATCH_MS after the input. A timer the input set,
 * due within that, fires in sight (its answer arrives before the settle ends); a periodic signal tick
 * wakes it in sight. Either way it woke with no wait to explain it, and its settles say `unsure` from
 * then on. A wake that a timed wait explains is not one: a thread whose wait ended at its deadline
 * (a loop's clock) and that waits again. So a program resting on a timed wait is watched only when
 * each such wait's deadline is known (reading.ts: when it went to sleep plus its timeout), or when the
 * wait cannot end within the watch. A main thread that rests waiting for signals only (a pause()
 * loop) counts as such a program. A program that stays still through the watch is taken at its
 * word, as a program without such timers is. Once per session: the cost is the first input's, and a
 * program seen waking once is known.
 */
import type { ThreadActivity } from "./classify.ts";
import { GRID_LATE_MS } from "./grid.ts";
import type { Look } from "./reading.ts";
import { signalTimerSource } from "./signal-timers.ts";

/** As NEAR_WAKE_MS (rest-model.ts): a timer the input set that is due within this long shows. */
export const HIDDEN_TIMER_WATCH_MS = 500;
/**
 * A relative timed wait this long (Go's sysmon parks 60 s) ends within the watch only if it began
 * nearly this long ago: it explains no wake in the watch, and one it does cause says `unsure`.
 */
const FAR_WAIT_MS = 20 * HIDDEN_TIMER_WATCH_MS;

export class HiddenTimerWatch {
  private state: "todo" | "watching" | "done" = "todo";
  /** Seen waking at rest with no wait to explain it (a signal timer, data from outside). */
  woke = false;

  /**
   * How long after the input to watch the program at rest in `seen`: HIDDEN_TIMER_WATCH_MS the first
   * time it rests with no timed wait that may end within the watch unseen and has a signal timer no
   * wait shows, else 0. A thread in such a wait with no known deadline could explain any wake, so
   * such a look teaches nothing and the watch waits for a later one.
   * `sourceOf` reads a process's signal timers (signalTimerSource through the oracle's /proc guard).
   */
  watchMs(seen: Look, sourceOf: (pid: number) => string | undefined = signalTimerSource): number {
    if (this.state !== "todo") return this.state === "watching" ? HIDDEN_TIMER_WATCH_MS : 0;
    if (seen.threads.some((t) => mayEndSoon(t.activity) && deadlineOf(t.activity) === undefined)) return 0;
    // A main thread resting in pause or sigsuspend is woken by signals only: its loop runs on them.
    const onSignals = seen.threads.some((t) => t.activity.kind === "wait" && t.activity.waitKind === "signal");
    if (!onSignals && !seen.pids.some((pid) => sourceOf(pid) !== undefined)) {
      this.state = "done";
      return 0;
    }
    this.state = "watching";
    return HIDDEN_TIMER_WATCH_MS;
  }

  /** The watch ended; `woke`: the program wrote or ran with no wait to explain it. */
  ended(woke: boolean): void {
    this.state = "done";
    if (woke) this.woke = true;
  }
}

/** A timed wait that may end within the watch: not one with more than the watch left, or a far one. */
function mayEndSoon(a: ThreadActivity): boolean {
  if (a.kind !== "wait" || !a.timed) return false;
  if (a.timeoutMs === undefined) return true;
  return a.absolute ? a.timeoutMs <= HIDDEN_TIMER_WATCH_MS : a.timeoutMs < FAR_WAIT_MS;
}

/** When a timed wait ends and how long it is, where known (reading.ts: when it went to sleep plus its timeout). */
function deadlineOf(a: ThreadActivity | undefined): { deadline: number; timeoutMs: number } | undefined {
  if (a?.kind !== "wait" || !a.timed || a.absolute || a.deadline === undefined || a.timeoutMs === undefined)
    return undefined;
  return { deadline: a.deadline, timeoutMs: a.timeoutMs };
}

/**
 * The program stirred during the watch and is back at rest in `after`: did a timed wait explain it?
 * Yes when some thread's wait with a known deadline in `before` has ended, and the thread slept again
 * no earlier than that deadline (less GRID_LATE_MS, a deadline read late). No when such a thread slept again
 * before it (a signal or a write woke it), or when no such wait ended (nothing seen explains it).
 */
export function wakeExplained(before: Look, after: Look): boolean {
  let onTime = false;
  for (const thread of after.threads) {
    const was = deadlineOf(before.threads.find((t) => t.tid === thread.tid)?.activity);
    const is = deadlineOf(thread.activity);
    if (was === undefined || is === undefined) continue;
    if (is.deadline === was.deadline) continue; // the same wait: it has not woken
    // It slept again before its deadline: something else woke it. Only a deadline read a little late
    // is allowed for, not a grid's share of the period: a signal timer firing 70 ms before a 700 ms
    // select would end passed for that select's end.
    if (is.deadline - is.timeoutMs < was.deadline - GRID_LATE_MS) return false;
    onTime = true;
  }
  return onTime;
}
