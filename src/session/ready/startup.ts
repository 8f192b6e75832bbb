/**
 * The start-up rule of the ready oracle (docs/ready-oracle.md): learn the rest of a program never yet
 * seen waiting for its user.
 */
import { FenceDrain } from "../output-fence.ts";
import type { Session } from "../session.ts";
import type { ForegroundLooker } from "./foreground.ts";
import { writesOf, type Look } from "./reading.ts";
import { allWaiting, type RestModel } from "./rest-model.ts";

/**
 * The rest is the first wait after the start-up output has been quiet STARTUP_QUIET_MS with no thread
 * running. The first input waits for that moment at most STARTUP_LOOK_MS (a spinner is never quiet:
 * then the last look with no thread running is taken). Runtimes settle into their idle rhythm after
 * start-up (bun waits 100 ms at a time for ~150 ms, then 1000), and a rest taken during that would
 * pass a pending timer as rest.
 */
const STARTUP_QUIET_MS = 200;
export const STARTUP_LOOK_MS = 500;

/**
 * Take as rest the first look with no thread running once the output has been quiet
 * STARTUP_QUIET_MS, looking for at most `forMs`. Returns the last look (undefined when /proc
 * failed). Used before the first input settled here, and by wait_for_idle when no rest is known
 * (the inputs before it may all have used waitFor or a fixed wait, which learn nothing).
 */
export async function learnStartupRest(
  session: Session,
  group: ForegroundLooker,
  rests: RestModel,
  first: Look,
  forMs: number,
): Promise<Look | undefined> {
  const until = performance.now() + forMs;
  let last = first;
  // Only the session's own group at rest counts: an interactive shell hands the terminal to a
  // command's group while it runs, and that group is not the rest.
  const resting = (seen: Look) => allWaiting(seen) && seen.tpgid === session.pid;
  let waiting = resting(first) ? first : undefined;
  const settled = () => waiting !== undefined && performance.now() - session.lastOutputAt >= STARTUP_QUIET_MS;
  while (!settled() && performance.now() < until && session.running) {
    await Bun.sleep(Math.min(10, Math.max(1, until - performance.now())));
    const again = group.guarded(() => group.lookNow());
    if (again === undefined) return undefined;
    last = again;
    if (resting(again)) waiting = again;
  }
  if (waiting !== undefined) rests.remember(waiting, true);
  return last;
}

/**
 * A timed wait at least this long, seen at start-up, is taken as the rest at once: runtimes' start-up
 * transients are short waits (bun's 100 ms), and any timer an input sets shorter than it shows.
 */
export const CERTAIN_TIMED_REST_MS = 500;

/**
 * `seen` is a rest without waiting for the start-up output to go quiet: the session's own group holds
 * the terminal and every thread waits for input or another thread with no timeout, or in a timed wait
 * of at least CERTAIN_TIMED_REST_MS (vim's 4 s select, bun's 1 s tick), or is stopped. The first input of a fresh
 * session then costs what later ones do.
 */
export function certainRest(seen: Look, sessionPid: number): boolean {
  if (seen.tpgid !== sessionPid || seen.threads.length === 0 || !allWaiting(seen)) return false;
  if (!seen.threads.some((t) => t.activity.kind === "wait" && t.activity.waitKind === "input")) return false;
  return seen.threads.every(({ activity: a, tid, pid }) => {
    if (a.kind !== "wait") return true;
    if (a.waitKind === "unknown") return false;
    if (!a.timed) return true;
    if (a.call === "futex" && tid !== pid) return true; // a worker parked with a deadline
    return a.timeoutMs !== undefined && a.timeoutMs >= CERTAIN_TIMED_REST_MS;
  });
}

/** How long after start the period watch looks, and how often. */
const PERIOD_WATCH_MS = 3000;
const PERIOD_WATCH_GAP_MS = 20;
/** A wait that began this close to the previous wait's deadline began at that wake-up. */
const WOKE_AT_DEADLINE_MS = 15;

/**
 * Before the first input: learn the start-up rest of a program that rests on a periodic timed wait
 * with its whole period. A look at start-up catches such a wait part-way (bun's 1 s tick as 880 ms),
 * which is then taken for a tick under a second, and the first settle waits out a wake-up. Once the
 * output has been quiet STARTUP_QUIET_MS, a thread seen waking at its wait's deadline and waiting
 * again in the same call waits a whole period: that look is the rest. Stops at the first input, when
 * a rest is known, when the program rests with no timer, or after PERIOD_WATCH_MS. `quietRest` is
 * told the first time the program is seen waiting STARTUP_QUIET_MS after the watch began.
 */
export async function watchStartupPeriod(
  session: Session,
  group: ForegroundLooker,
  rests: RestModel,
  firstInputSent: () => boolean,
  quietRest: () => void,
): Promise<void> {
  const startedAt = performance.now();
  const until = startedAt + PERIOD_WATCH_MS;
  const deadlines = new Map<number, { nr: number; at: number }>();
  const fenced = new FenceDrain(session.fence);
  let rested = false;
  while (performance.now() < until && session.running && !firstInputSent() && rests.restGroup === undefined) {
    await Bun.sleep(PERIOD_WATCH_GAP_MS);
    if (firstInputSent() || rests.restGroup !== undefined || !group.available) return;
    const seen = group.guarded(() => group.lookNow());
    if (seen === undefined) return;
    if (seen.tpgid !== session.pid || !allWaiting(seen)) {
      deadlines.clear();
      continue;
    }
    // Waiting, STARTUP_QUIET_MS after start: from here on, output with no input is the program's own
    // (a redraw on a timer, or on something no wait shows). Not before it has shown something, and its
    // start-up output is in: a program still in its start-up waits (connecting to a server) draws its
    // first screen later, and under load the reader lags; either would count as its own output later.
    if (
      !rested &&
      performance.now() - startedAt >= STARTUP_QUIET_MS &&
      session.bytesOut > 0 &&
      startupOutputIn(session, seen, fenced)
    ) {
      quietRest();
      rested = true;
    }
    if (performance.now() - session.lastOutputAt < STARTUP_QUIET_MS) {
      deadlines.clear();
      continue;
    }
    let timed = false;
    for (const { tid, activity: a } of seen.threads) {
      if (a.kind !== "wait" || !a.timed || a.deadline === undefined || a.timeoutMs === undefined) continue;
      timed = true;
      const before = deadlines.get(tid);
      // a new wait in the same call, begun at the last one's deadline: it woke there and waits a period
      const began = a.deadline - a.timeoutMs;
      if (before?.nr === a.nr && before.at !== a.deadline && Math.abs(began - before.at) <= WOKE_AT_DEADLINE_MS) {
        rests.remember(seen, true);
        return;
      }
      deadlines.set(tid, { nr: a.nr, at: a.deadline });
    }
    if (!timed) return; // no timer to learn: the start-up rule takes its rest at once
  }
}

/**
 * Everything the group in `seen` has written since it started has reached us: bytes received cover
 * its write counters (CRLF only adds), or a fence raised behind them came back (the counters take in
 * writes to files and pipes too).
 */
export function startupOutputIn(session: Session, seen: Look, fenced: FenceDrain): boolean {
  let written = 0;
  for (const io of seen.io.values()) written += io.wchar;
  return session.bytesOut >= written || fenced.drained(writesOf(seen));
}
