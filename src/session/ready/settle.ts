/**
 * The settle loop of the ready oracle: look at the foreground group until the program has taken the
 * input, is back at rest and its output has reached the emulator, or the cap passes.
 */
import { cancelled } from "../../errors.ts";
import type { Session } from "../session.ts";
import type { ForegroundLooker } from "./foreground.ts";
import type { AtRest, Baseline, Busy, ReadyOutcome, SettledBy } from "./outcome.ts";
import { procCost } from "./proc.ts";
import type { Look } from "./reading.ts";
import type { RestModel } from "./rest-model.ts";
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
 * and up to 100 ms beside two busy loops per core, bench/reader-lag.ts). Wait for it until the bytes
 * received cover the bytes written, or at most this long (a program that also writes files or
 * eventfds, or a shell whose reaped child did, never reaches that).
 */
const DRAIN_GRACE_MS = 100;
/**
 * Where the kernel reports CPU pressure the grace is shorter: output is late only by the time its
 * carriers waited for a CPU, which is at most the pressure's stall over the settle, plus the time to
 * carry it with no wait (at most 7 ms idle in bench/reader-lag.ts).
 */
const DRAIN_CARRY_MS = 10;
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
  /** The CPU pressure's stall total in µs (cpu-stall.ts); absent or undefined: unknown, the fixed grace. */
  cpuStallUs?: () => number | undefined;
}

/** A hold for a tick's wake-up (see settle) lasts at most the tick and this much more. */
const HOLD_SLACK_MS = 30;
/** Looks while holding for a wake-up are this far apart: the wake-up shows a look later at most. */
const HOLD_LOOK_GAP_MS = 4;

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
  const outcome = (settledBy: SettledBy, program?: string, busy?: Busy, tickMs?: number): ReadyOutcome => ({
    settledBy,
    ...(program !== undefined ? { program } : {}),
    ...(busy !== undefined ? { busy } : {}),
    ...(tickMs !== undefined ? { tickMs } : {}),
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
  // `stall`: the CPU stall total at the last look at rest whose group had written more (`wchar`): the
  // start of the window that bounds how late output can still be (drainWaited).
  let restSince: { at: number; bytes: number; wchar: number; stall: Stall } | undefined;
  // Back at rest on a short tick, the settle waits for the tick's next wake-up, at most one period:
  // a timer the input set that falls in that period then shows (off the tick's grid). Later work
  // stays hidden, and the outcome says so (unsure).
  let hold: { wake: string; until: number } | undefined;
  let held = false;
  for (;;) {
    if (signal?.aborted) throw cancelled("The wait");
    if (!session.running) {
      await session.whenExited();
      return outcome("exit");
    }
    const now = performance.now();
    const seen = group.guarded(() => group.lookNow(restSince === undefined ? known : undefined));
    if (seen === undefined) {
      if (!group.available) return outcome("quiet");
      await Bun.sleep(1); // the process is exiting; the next turn reports the exit
      continue;
    }
    known = seen;
    if (base !== undefined) rests.noteQuietWaits(seen);
    const busy = rests.busyIn(seen, session.pid);
    rests.notePhase(seen);
    const responded = base === undefined || respondedTo(parts, base, seen, bytesAtStart, now - since);
    if (busy === undefined && responded) {
      if (restSince === undefined)
        restSince = { at: now, bytes: session.bytesOut, wchar: sum(seen, "wchar"), stall: stallNow(parts, now) };
      else if (
        session.bytesOut === restSince.bytes &&
        (drained(session, base, seen, bytesAtStart) || drainWaited(parts, restSince, now))
      ) {
        await session.emulator.flushed();
        const tick = held ? undefined : parts.shortTick(seen);
        if (tick !== undefined && hold === undefined)
          hold = { wake: tick.wake, until: now + tick.tickMs + HOLD_SLACK_MS };
        else if (tick !== undefined && hold !== undefined && (tick.wake !== hold.wake || now >= hold.until))
          held = true;
        if (session.bytesOut === restSince.bytes && (tick === undefined || held)) {
          const rest = parts.atRest(seen, base);
          return outcome(rest.settledBy, seen.leader, undefined, rest.tickMs);
        }
      }
      // A write at rest (a wake-up, a child reaped into its parent's counter) moves the window's start.
      const wchar = sum(seen, "wchar");
      if (wchar !== restSince.wchar) restSince.stall = stallNow(parts, now);
      restSince.bytes = session.bytesOut;
      restSince.wchar = wchar;
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
    const resting = restSince !== undefined ? (hold !== undefined && !held ? HOLD_LOOK_GAP_MS : 1) : undefined;
    const gap = resting ?? Math.min(MAX_LOOK_GAP_MS, Math.max(1, elapsed / 8));
    const asked = Math.min(gap, capMs - elapsed);
    const asleep = performance.now();
    await Bun.sleep(asked);
    // This thread receives the reader's chunks: woken late, it may have been late with them too.
    if (restSince) restSince.stall.lateMs += Math.max(0, performance.now() - asleep - asked - TIMER_SLACK_MS);
  }
}

/** The CPU stall total at `at` (undefined: no PSI). */
/**
 * The window a drain is judged on: its start, the CPU stall total then (undefined: no PSI), and how much
 * later than asked this thread's own sleeps ended in it (busy with other work, or not given a CPU).
 */
type Stall = { at: number; us: number | undefined; lateMs: number };

const stallNow = (parts: SettleParts, at: number): Stall => ({ at, us: parts.cpuStallUs?.(), lateMs: 0 });

/** A timer may end this much after its time on an idle machine: not counted as this thread being late. */
const TIMER_SLACK_MS = 2;

/**
 * How long output may still be on its way, given the CPU stall in ms since the window began, plus how late
 * this thread was in it (undefined: unknown).
 * The window can start at the rest, not at the input: a byte written earlier that is still on its way
 * has had its carriers wait for a CPU the whole time since, and what waits before the rest counts at most
 * as the time itself, so it is late past the rest by no more than the carry plus the stall after it.
 */
export function drainGraceMs(stallMs: number | undefined): number {
  return stallMs === undefined ? DRAIN_GRACE_MS : Math.min(DRAIN_GRACE_MS, DRAIN_CARRY_MS + stallMs);
}

/** At rest since `rest.at`: has the drain grace passed since the group last wrote (the fixed grace: since the rest)? */
function drainWaited(parts: SettleParts, rest: { at: number; stall: Stall }, now: number): boolean {
  const from = rest.stall;
  const us = from.us === undefined ? undefined : parts.cpuStallUs?.();
  if (us === undefined || from.us === undefined) return now - rest.at >= DRAIN_GRACE_MS;
  return now - from.at >= drainGraceMs((us - from.us) / 1000 + from.lateMs);
}

/**
 * Has the program taken the input? It read, wrote (from a rest with no timer), changed group, or had
 * time.
 */
function respondedTo(parts: SettleParts, base: Look, seen: Look, bytesAtStart: number, elapsed: number): boolean {
  if (seen.tpgid !== base.tpgid || seen.pids.join() !== base.pids.join()) return true;
  if (sum(seen, "rchar") > sum(base, "rchar")) return true; // same processes: the check above
  const timedRest = parts.rests.restsOnTimer(seen);
  if (!timedRest && parts.session.bytesOut > bytesAtStart) return true;
  return elapsed >= NO_RESPONSE_MS;
}

/**
 * Everything the group wrote since the input has reached us: bytes received ≥ bytes written (echo
 * and CRLF only add). Counted over the processes of this look: a reaped child's writes are in its
 * parent's counter from then on (the kernel adds them at wait()), so they must not be kept apart.
 */
function drained(session: Session, base: Look | undefined, seen: Look, bytesAtStart: number): boolean {
  if (base === undefined) return false;
  let written = 0;
  for (const [pid, io] of seen.io) written += io.wchar - (base.io.get(pid)?.wchar ?? 0);
  return session.bytesOut - bytesAtStart >= written;
}

/** Sum of a counter over the processes of `seen`. */
function sum(seen: Look, key: "rchar" | "wchar"): number {
  let total = 0;
  for (const io of seen.io.values()) total += io[key];
  return total;
}
