/**
 * The settle loop of the ready oracle: look at the foreground group until the program has taken the
 * input, is back at rest and its output has reached the emulator, or the cap passes.
 */
import { cancelled } from "../../errors.ts";
import { FenceDrain } from "../output-fence.ts";
import type { Session } from "../session.ts";
import type { ForegroundLooker } from "./foreground.ts";
import type { AtRest, Baseline, Busy, ReadyOutcome, SettledBy } from "./outcome.ts";
import { procCost } from "./proc.ts";
import { writesOf, type Look } from "./reading.ts";
import type { RestModel } from "./rest-model.ts";
import { onlyFarTimers } from "./far-timers.ts";
import { wakeExplained } from "./hidden-timer-watch.ts";
import { learnStartupRest, STARTUP_LOOK_MS } from "./startup.ts";

/**
 * A program that has neither read its input nor written anything this long after it is taken to
 * ignore it (cooked mode with no echo, a key it does not read). Until then a program still in its
 * rest may simply not have been handed the key yet: the tty layer delivers input from a kernel
 * worker, and on a loaded machine (load 14 on 2 cores) that took over 50 ms.
 */
export const NO_RESPONSE_MS = 250;
/**
 * Back at rest, output the program wrote may still be on its way to the emulator (the PTY's reader
 * thread can be starved for tens of ms on a loaded machine: measured 20+ ms at load 14 on 2 cores,
 * and up to 102 ms beside two busy loops per core in bench/reader-lag.ts).
 * Wait for it until the bytes received cover the bytes written or a fence raised behind it comes back.
 * Where no fence could be raised (the terminal's output stopped) or one was lost, wait at most this long.
 */
const DRAIN_GRACE_MS = 100;
/** Looks are 1 ms apart at first, then an eighth of the time waited so far, at most this far apart. */
const MAX_LOOK_GAP_MS = 25;

/** What the settle loop works with: the oracle's parts. */
export interface SettleParts {
  session: Session;
  group: ForegroundLooker;
  rests: RestModel;
  /**
   * The program is back at rest in `seen` and drained: record it. Returns how to report it: idle,
   * periodic (redraws on a long timer), or unsure (rests on a short tick that can hide work).
   * `base` is undefined when the settle had no baseline.
   */
  atRest(seen: Look, base: Look | undefined): AtRest;
  /** The short tick `seen` rests on, if any (rest-model.ts shortTick). */
  shortTick(seen: Look): { tickMs: number; wake: string } | undefined;
  /** A long tick's wake-up due soon, if any (rest-model.ts nearWake). */
  nearWake(seen: Look): { tickMs: number; wake: string } | undefined;
  /**
   * How long after the input a program back at rest in `seen` is watched for a wake that no wait
   * explains (a signal timer; see HiddenTimerWatch); 0 for none.
   */
  hiddenWatchMs(seen: Look): number;
  /** The watch ended: `woke` when the program woke (wrote or ran) with no wait to explain it. */
  hiddenWatchEnded(woke: boolean): void;
  /** The bytes the terminal may have echoed for the inputs since the oracle's count stood at `at`. */
  echoedSince(at: number): number;
}

/** A seam for the corpus bench (bench/ready-corpus.ts, CORPUS_DEBUG): sees the looks each settle at rest ended on. */
export const settleTrace: { atRest?: (seen: Look, base: Look | undefined) => void } = {};

/** A hold for a tick's wake-up (see settle) lasts at most the tick and this much more. */
const HOLD_SLACK_MS = 30;
/** Looks while holding for a wake-up are this far apart: the wake-up shows a look later at most. */
const HOLD_LOOK_GAP_MS = 4;
/** Looks while watching for a wake no wait explains (hiddenWatchMs) are this far apart. */
const WATCH_LOOK_GAP_MS = 10;

/**
 * Wait until the program is back at rest after an input (or, without a baseline, at rest now) and
 * the emulator has parsed what it wrote; at most `capMs` from `since`.
 */
export async function settle(
  parts: SettleParts,
  baseline: Baseline | undefined,
  since: number,
  capMs: number,
  signal?: AbortSignal,
): Promise<ReadyOutcome> {
  const { session, group, rests } = parts;
  const cost = { reads: procCost.reads, ms: procCost.ms };
  const outcome = (settledBy: SettledBy, program?: string, busy?: Busy, rest?: AtRest): ReadyOutcome => ({
    settledBy,
    ...(program !== undefined ? { program } : {}),
    ...(busy !== undefined ? { busy } : {}),
    ...(rest?.tickMs !== undefined ? { tickMs: rest.tickMs } : {}),
    ...(rest?.unseen !== undefined ? { unseen: rest.unseen } : {}),
    procReads: procCost.reads - cost.reads,
    procMs: Math.round((procCost.ms - cost.ms) * 100) / 100,
  });
  const base = baseline?.look;
  if (base === undefined && rests.restGroup === undefined && group.available && session.running) {
    const first = group.guarded(() => group.lookNow());
    if (first !== undefined) {
      await learnStartupRest(session, group, rests, first, Math.min(STARTUP_LOOK_MS, capMs / 2));
    }
  }
  const bytesAtStart = baseline?.bytesOut ?? session.bytesOut;
  rests.stopWatching();
  let known = base;
  const fenced = new FenceDrain(session.fence);
  let restSince: { at: number; bytes: number } | undefined;
  // Back at rest on a short tick, the settle waits for the tick's next wake-up, at most one period:
  // a timer the input set that falls in that period then shows (off the tick's grid). Later work
  // stays hidden, and the outcome says so (unsure). A long tick's wake-up due soon is waited for too:
  // a timer due after it hides behind it until then.
  let hold: { wake: string; until: number } | undefined;
  let held = false;
  // Back at rest, a program that has a signal timer no wait shows is watched until `until`: if it
  // writes or runs (it stirred), and once back at rest no timed wait is seen to have ended at its
  // deadline, something no wait shows woke it.
  let watch: { start: Look; writes: string; bytes: number; until: number; stirred: boolean } | undefined;
  for (;;) {
    if (signal?.aborted) throw cancelled("The wait");
    if (!session.running) {
      await session.whenExited();
      return outcome("exit");
    }
    const now = performance.now();
    // Busy, the last scan's members are looked at again; at rest, or reading a pipe or socket whose
    // other end they do not hold (a child forked since, which is to write it), the group is scanned.
    const seen = group.guarded(() =>
      group.lookNow(restSince === undefined && known !== undefined && !readsUnknownEnd(known) ? known : undefined),
    );
    if (seen === undefined) {
      if (!group.available) return outcome("quiet");
      await Bun.sleep(1); // the process is exiting; the next turn reports the exit
      continue;
    }
    known = seen;
    if (base !== undefined) rests.noteQuietWaits(seen);
    const busyNow = rests.busyIn(seen, session.pid);
    // Busy only in timers that end after the cap: at rest as far as the cap goes (far-timers.ts).
    const far =
      busyNow?.state === "timer" &&
      base !== undefined &&
      onlyFarTimers(rests.busyThreads(seen), base, now - since, capMs - (now - since))
        ? busyNow
        : undefined;
    const busy = far === undefined ? busyNow : undefined;
    rests.notePhase(seen);
    if (
      watch !== undefined &&
      (busy !== undefined || writesOf(seen) !== watch.writes || session.bytesOut !== watch.bytes)
    )
      watch.stirred = true;
    const responded = base === undefined || respondedTo(parts, base, seen, bytesAtStart, now - since);
    if (busy === undefined && responded) {
      // At rest: has what it wrote reached us? The counters say so when it wrote to the terminal only;
      // otherwise a fence raised behind its output says so when it comes back.
      const writes = writesOf(seen);
      const echoed = baseline === undefined ? 0 : parts.echoedSince(baseline.echoedAt);
      const allIn = drained(session, base, seen, bytesAtStart + echoed) || fenced.drained(writes);
      if (restSince === undefined) restSince = { at: now, bytes: session.bytesOut };
      // Without a fence on its way, output not in after the grace is not waited for any more (a program
      // that writes while its output is stopped); with one, the fence is waited for.
      else if (
        session.bytesOut === restSince.bytes &&
        (allIn || (!fenced.coming(writes) && now - restSince.at >= DRAIN_GRACE_MS))
      ) {
        await session.emulator.flushed();
        const tick = held ? undefined : (parts.shortTick(seen) ?? parts.nearWake(seen));
        if (tick !== undefined && hold === undefined)
          hold = { wake: tick.wake, until: now + tick.tickMs + HOLD_SLACK_MS };
        else if (tick !== undefined && hold !== undefined && (tick.wake !== hold.wake || now >= hold.until))
          held = true;
        if (session.bytesOut === restSince.bytes && (tick === undefined || held)) {
          if (watch?.stirred) {
            const explained = wakeExplained(watch.start, seen);
            if (!explained) parts.hiddenWatchEnded(true);
            watch = explained ? { ...watch, start: seen, writes, bytes: session.bytesOut, stirred: false } : undefined;
          }
          if (watch === undefined && base !== undefined) {
            const watchMs = parts.hiddenWatchMs(seen);
            const until = since + Math.min(watchMs, capMs - 2 * WATCH_LOOK_GAP_MS);
            if (watchMs > 0 && now < until)
              watch = { start: seen, writes, bytes: session.bytesOut, until, stirred: false };
          }
          if (watch === undefined || now >= watch.until) {
            if (watch !== undefined) parts.hiddenWatchEnded(false);
            if (far !== undefined) {
              rests.learnLongWaits(seen, capMs); // as a timeout does
              return outcome("unsure", seen.leader, far);
            }
            const rest = parts.atRest(seen, base);
            settleTrace.atRest?.(seen, base);
            return outcome(rest.settledBy, seen.leader, undefined, rest);
          }
        }
      }
      restSince.bytes = session.bytesOut;
    } else {
      restSince = undefined;
    }
    const elapsed = performance.now() - since;
    if (elapsed >= capMs) {
      await session.emulator.flushed();
      rests.learnLongWaits(seen, capMs);
      return outcome(
        "timeout",
        seen.leader,
        busy ?? (responded ? undefined : { pid: seen.tpgid, command: seen.leader ?? "?", state: "sleeping" }),
      );
    }
    const resting =
      watch !== undefined
        ? WATCH_LOOK_GAP_MS
        : restSince !== undefined
          ? hold !== undefined && !held
            ? HOLD_LOOK_GAP_MS
            : 1
          : undefined;
    const gap = resting ?? Math.min(MAX_LOOK_GAP_MS, Math.max(1, elapsed / 8));
    await Bun.sleep(Math.min(gap, capMs - elapsed));
  }
}

/**
 * Has the program taken the input? It read, wrote (from a rest with no timer), changed group, started
 * a process, or had time. A process gone since the baseline says nothing: a zombie of the last
 * input's work can be reaped just after it, before this input is read (the program then still waits
 * for its key, and looks at rest).
 */
function respondedTo(parts: SettleParts, base: Look, seen: Look, bytesAtStart: number, elapsed: number): boolean {
  if (seen.tpgid !== base.tpgid || seen.pids.some((pid) => !base.pids.includes(pid))) return true;
  // Over all processes of each look: a reaped child's counters move to its parent's (at wait()).
  if (sum(seen, "rchar") > sum(base, "rchar")) return true;
  const timedRest = parts.rests.restsOnTimer(seen);
  if (!timedRest && parts.session.bytesOut > bytesAtStart) return true;
  return elapsed >= NO_RESPONSE_MS;
}

/**
 * Everything the group wrote since the input has reached us: bytes received beyond `bytesAtStart`
 * (which takes in the input's echo, echo-budget.ts) ≥ bytes written (CRLF only adds). Counted over
 * the processes of this look: a reaped child's writes are in its parent's counter from then on (the
 * kernel adds them at wait()), so they must not be kept apart.
 */
function drained(session: Session, base: Look | undefined, seen: Look, bytesAtStart: number): boolean {
  if (base === undefined) return false;
  let written = 0;
  for (const [pid, io] of seen.io) written += io.wchar - (base.io.get(pid)?.wchar ?? 0);
  return session.bytesOut - bytesAtStart >= written;
}

/** A thread of `seen` reads a pipe or socket whose other end no process of the look holds (group-ends.ts). */
function readsUnknownEnd(seen: Look): boolean {
  return seen.threads.some((t) => t.activity.kind === "wait" && t.activity.waitKind === "pipe");
}

/** Sum of a counter over the processes of `seen`. */
function sum(seen: Look, key: "rchar" | "wchar"): number {
  let total = 0;
  for (const io of seen.io.values()) total += io[key];
  return total;
}
