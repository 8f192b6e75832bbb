/**
 * Worker threads parked until a deadline that did not rest so: a thread the input started to run work
 * later. A worker parked on a timed futex rests (judge: runtimes park their helpers with deadlines),
 * unless it did not rest so (never seen at rest, or at rest in another wait) and its wait ends within
 * the horizon (rest-model.ts UNSURE_TICK_MS: Python's threading.Timer waits on a condition with the timer's deadline; a node
 * worker in Atomics.wait(200)). It is a timer until it has run once; a helper that wakes and parks
 * again is rest from then on. A job-control shell's workers are its own housekeeping (fish's I/O
 * threads wait 500 ms for more work, then exit): never followed.
 */
import type { RestWait, Verdict } from "./classify.ts";
import type { ThreadLook } from "./reading.ts";

/** Workers followed in one settle; more are taken as rest. */
const MAX_NEW_TIMERS = 64;

export class NewWorkerTimers {
  /** `horizonMs`: a deadline further out than this is a helper's park, not followed. */
  constructor(private readonly horizonMs: number) {}

  /** Per thread, when it went to sleep in the wait first seen (its se.exec_start: changes once it ran). */
  private readonly first = new Map<number, number>();

  /** A settle starts: the workers followed in the last one are forgotten. */
  clear(): void {
    this.first.clear();
  }

  /** The verdict on `thread`, given judge's `verdict` and the thread's rest `known`. */
  judge(thread: ThreadLook, verdict: Verdict, known: RestWait | undefined): Verdict {
    const a = thread.activity;
    if (!verdict.rest || a.kind !== "wait" || a.call !== "futex" || !a.timed || thread.tid === thread.pid)
      return verdict;
    if ((known?.timed && known.nr === a.nr) || a.sleptAt === undefined || a.timeoutMs === undefined) return verdict;
    if (a.timeoutMs > this.horizonMs || a.shellHelper) return verdict;
    const first = this.first.get(thread.tid);
    if (first === undefined && this.first.size < MAX_NEW_TIMERS) this.first.set(thread.tid, a.sleptAt);
    else if (first !== a.sleptAt) return verdict;
    return { rest: false, state: "timer", timerDueMs: a.timeoutMs, call: a.call };
  }
}
