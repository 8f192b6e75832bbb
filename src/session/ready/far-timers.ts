/**
 * Timers a settle cannot wait out. After an input, a program back at rest but for timed waits that
 * all end after the settle's cap (node arms a 7 s timer after some answers; `sleep 5` at a shell) has
 * nothing due before the cap that a wait shows: waiting the cap out would only cost it. The settle
 * ends at once and says it cannot tell (unsure, with the timer), as the timeout would have.
 */
import type { ThreadActivity, Verdict } from "./classify.ts";
import type { Look, ThreadLook } from "./reading.ts";

/** A wait that ends this little after the cap may have ended within it: the baseline look came before the input. */
const FAR_MARGIN_MS = 20;

/**
 * Every thread judged busy in `busy` (at least one) is in a timer that ends more than `capLeftMs`
 * from now; `base` is the look before the input, `elapsedMs` the time since it.
 */
export function onlyFarTimers(
  busy: readonly { thread: ThreadLook; verdict: Verdict }[],
  base: Look,
  elapsedMs: number,
  capLeftMs: number,
): boolean {
  return (
    busy.length > 0 &&
    busy.every(
      ({ thread, verdict }) =>
        !verdict.rest &&
        verdict.state === "timer" &&
        endsAfter(thread.activity, base.threads.find((t) => t.tid === thread.tid)?.activity, elapsedMs, capLeftMs),
    )
  );
}

/** The wait `a` ends more than `capLeftMs` from now: its own timeout and a one-shot timerfd in its set both do. */
export function endsAfter(
  a: ThreadActivity,
  before: ThreadActivity | undefined,
  elapsedMs: number,
  capLeftMs: number,
): boolean {
  if (a.kind !== "wait" || !(a.timed || a.oneShot !== undefined)) return false;
  const ends: number[] = [];
  if (a.oneShot !== undefined) ends.push(a.oneShot.leftMs);
  if (a.timed) {
    const own = ownLeft(a, before, elapsedMs);
    if (own === undefined) return false;
    ends.push(own);
  }
  return Math.min(...ends) > capLeftMs + FAR_MARGIN_MS;
}

/** At least how long the timed wait `a` has left, where that is known. */
function ownLeft(
  a: Extract<ThreadActivity, { kind: "wait" }>,
  before: ThreadActivity | undefined,
  elapsedMs: number,
): number | undefined {
  if (a.timeoutMs === undefined) return undefined;
  // An absolute timeout's timeoutMs is what was left of it at the look; a timerfd tick's is its
  // period (withEpollTimers), with its deadline on another clock: not known.
  if (a.absolute) return a.deadline === undefined ? a.timeoutMs : undefined;
  // A relative one that began since the look before the input has at least its timeout less the
  // time since then left.
  return begunSince(a, before) ? a.timeoutMs - elapsedMs : undefined;
}

/** The wait `a` began after the look `before` was taken (the thread was elsewhere then, or slept again since). */
function begunSince(a: Extract<ThreadActivity, { kind: "wait" }>, before: ThreadActivity | undefined): boolean {
  if (before === undefined || before.kind !== "wait") return true;
  if (before.nr !== a.nr || before.timed !== a.timed || before.timeoutMs !== a.timeoutMs) return true;
  return a.deadline !== undefined && before.deadline !== undefined && a.deadline !== before.deadline;
}
