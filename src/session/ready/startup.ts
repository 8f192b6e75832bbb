/**
 * The start-up rule of the ready oracle (docs/ready-oracle.md): learn the rest of a program never yet
 * seen waiting for its user.
 */
import type { Session } from "../session.ts";
import type { ForegroundLooker } from "./foreground.ts";
import type { Look } from "./reading.ts";
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
