/**
 * What one thread is doing, and whether that is its rest. Pure: the oracle reads /proc, this judges.
 *
 * A thread is at rest when it is:
 * - stopped (by a signal, not for a tracer) or a zombie;
 * - waiting for input with no timeout (read, poll/select/epoll with none): it waits for its user;
 * - in a wait only another thread or process can end (futex or sigsuspend with no timeout, wait4):
 *   the threads that can end it are judged on their own. A worker thread (not the process's main
 *   thread) in a futex wait with a timeout rests too: pools and runtimes (bun's, V8's, Go's) park
 *   their helpers on a condition with a deadline and flip between timed and untimed parking;
 *   a main thread in a timed futex (Python's Event.wait(0.4)) is a timer;
 * - in the same timed wait as at its rest (same syscall, a timeout from half to twice the rest's),
 *   or the same unknown wait as at its rest. A wait much shorter than the rest is a timer the input
 *   set (bun rests in epoll_pwait2(1000) and waits 60 ms for a setTimeout(60)); a periodic
 *   program's shortened tick counts as busy until its next full tick, at most one period. A spinner
 *   sleeping 80 ms between frames, htop's refresh select, the Go runtime's sleeping threads: these
 *   wake by themselves and are resting. A rest learnt at start-up is provisional (see unlikeRest).
 * Anything else may still answer: running, in disk sleep, or in a timed wait it was not in at rest
 * (a raw-mode app now in select(400 ms), node's epoll_pwait(3000) with a setTimeout pending).
 */
import { CLOCK_MONOTONIC, CLOCK_REALTIME } from "./clock.ts";
import type { ProcStat } from "../../util/proc-stat.ts";
import type { ProcSyscall } from "./proc.ts";
import { syscallInfo, type Arch, type WaitKind } from "./syscalls.ts";
import type { EpollTimers } from "./timerfds.ts";

export type ThreadActivity =
  | { kind: "running" }
  | { kind: "disk" }
  | { kind: "stopped" }
  | {
      kind: "wait";
      call: string;
      nr: number;
      waitKind: WaitKind | "unknown";
      timed: boolean;
      timeoutMs?: number;
      /** When a timed wait ends, in ms of the scheduler's clock: when it went to sleep plus its timeout. */
      deadline?: number;
      /** The timeout was absolute: timeoutMs is what was left of it at the look (so no deadline is put on it). */
      absolute?: true;
      /** A worker's timed futex: when it went to sleep (scheduler's clock), which changes once it has run. */
      sleptAt?: number;
      /** A helper thread's timed wait in a job-control shell (fish's I/O threads park 500 ms, then exit): housekeeping. */
      shellHelper?: true;
      /** An epoll wait with a one-shot timerfd armed in its set: the nearest one's expiry and time left (timerfds.ts). */
      oneShot?: { at: number; leftMs: number };
      /** A read of a TCP socket with bytes on their way between it and its peer on this host (tcp-in-flight.ts). */
      inFlight?: true;
      /** An io_uring_enter waiting for completions: the requests its ring has in flight, and those polled of them (rings.ts). */
      ring?: { inFlight: number; polled: number };
    };

/** A thread's wait at rest, as remembered between inputs. */
export interface RestWait {
  nr: number;
  timed: boolean;
  timeoutMs?: number;
  /** Learnt at start-up (see docs/ready-oracle.md): a longer timed wait than this still counts as rest. */
  provisional?: boolean;
  /** A one-shot timerfd armed at rest (an idle timeout): its expiry. The same timer later is no answer's. */
  oneShotAt?: number;
  /** A read of something that is no terminal (waitKind "pipe") was the rest: a helper thread's self-pipe. */
  pipe?: true;
  /** A wait for a signal only (waitKind "signal") was the rest: a wrapper in sigsuspend from its start. */
  signal?: true;
  /** A ring's wait was the rest: the most requests seen in flight at rest (rings.ts). */
  ringInFlight?: number;
}

export type BusyState = "running" | "sleeping" | "timer";

export type Verdict =
  | { rest: true; waitsForInput: boolean; timed: boolean }
  | { rest: false; state: BusyState; timerDueMs?: number; call?: string };

/**
 * futex operations (futex(2)): FUTEX_WAIT's timeout is relative; the others' absolute, on
 * CLOCK_MONOTONIC unless FUTEX_CLOCK_REALTIME is set, and FUTEX_LOCK_PI's on CLOCK_REALTIME.
 */
const FUTEX_WAIT = 0;
const FUTEX_LOCK_PI = 6;
const FUTEX_CLOCK_REALTIME = 256n;
const TIMER_ABSTIME = 1n;

/** The low 32 bits of a register as a signed int: how an `int timeout` of -1 shows in /proc. */
const int32 = (value: bigint): number => Number(BigInt.asIntN(32, value));

/**
 * `readTimeout` reads a timeout passed by pointer (from /proc/<pid>/mem); it is called only for a
 * timed wait whose length matters. An absolute timeout's length is what is left of it by `clockNow`
 * (ms on a clockid_t's clock, clock.ts).
 */
export function classify(
  arch: Arch,
  stat: ProcStat,
  syscall: ProcSyscall | undefined,
  readTimeout: (address: bigint, type: "timeval" | "timespec") => number | undefined,
  clockNow: (clock: number) => number | undefined = () => undefined,
): ThreadActivity {
  // A tracing stop (t) waits for the tracer to resume it (strace, a ptrace loop): work in flight, not
  // a rest; a look can find the tracer still asleep in wait4 before the stop has woken it.
  if (stat.state === "t") return { kind: "running" };
  if ("TZXx".includes(stat.state)) return { kind: "stopped" };
  if (stat.state === "R" || syscall === undefined || syscall.running) return { kind: "running" };
  if (stat.state === "D") return { kind: "disk" };
  const info = syscall.nr >= 0 ? syscallInfo(arch, syscall.nr) : undefined;
  if (info === undefined)
    return {
      kind: "wait",
      call: syscall.nr < 0 ? "no syscall" : `syscall ${syscall.nr}`,
      nr: syscall.nr,
      waitKind: "unknown",
      timed: false,
    };
  const wait = { kind: "wait" as const, call: info.name, nr: syscall.nr, waitKind: info.kind };
  const timeout = info.timeout;
  const arg = timeout.type === "none" ? 0n : (syscall.args[timeout.arg] ?? 0n);
  switch (timeout.type) {
    case "none":
      return { ...wait, timed: false };
    case "ms": {
      const value = int32(arg);
      return value < 0 ? { ...wait, timed: false } : { ...wait, timed: true, timeoutMs: value };
    }
    case "futex": {
      if (arg === 0n) return { ...wait, timed: false };
      const flags = syscall.args[1] ?? 0n;
      const op = Number(flags & 0x7fn);
      const given = readTimeout(arg, "timespec");
      if (op === FUTEX_WAIT) return { ...wait, timed: true, timeoutMs: given };
      const clock = op === FUTEX_LOCK_PI || (flags & FUTEX_CLOCK_REALTIME) !== 0n ? CLOCK_REALTIME : CLOCK_MONOTONIC;
      return { ...wait, timed: true, timeoutMs: left(given, clockNow(clock)), absolute: true };
    }
    default: {
      if (arg === 0n) return { ...wait, timed: false };
      const absolute = info.name === "clock_nanosleep" && ((syscall.args[1] ?? 0n) & TIMER_ABSTIME) !== 0n;
      const given = readTimeout(arg, timeout.type);
      if (!absolute) return { ...wait, timed: true, timeoutMs: given };
      return { ...wait, timed: true, timeoutMs: left(given, clockNow(Number(syscall.args[0] ?? 0n))), absolute: true };
    }
  }
}

/** What is left of an absolute timeout `at` when the clock reads `now` (0 once due), or undefined when either is unknown. */
function left(at: number | undefined, now: number | undefined): number | undefined {
  return at === undefined || now === undefined ? undefined : Math.max(0, Math.round(at - now));
}

/**
 * A timed wait this far from the rest's is a different wait: a 60 ms timer under a 1 s tick, a 400 ms
 * answer after a 50 ms tick. A rest learnt at start-up may be a start-up transient (bun waits 100 ms
 * at a time for its first 150 ms, then 1000), so there a longer wait is rest and a shorter one busy.
 */
function unlikeRest(now: number | undefined, rest: RestWait): boolean {
  const restMs = rest.timeoutMs;
  if (now === undefined || restMs === undefined) return false;
  // A provisional rest was seen once, at an unknown point of the program's cycle: any clearly shorter
  // wait is busy (at worst, one period of a redraw loop is waited out).
  if (rest.provisional) return now < restMs * 0.9 - 5;
  return now < restMs / 2 - 20 || now > restMs * 2 + 20;
}

/** A one-shot timerfd this close to the rest's expiry is the same timer. */
const SAME_TIMER_MS = 5;

/**
 * Timers armed in the epoll set a wait is on (timerfds.ts): a periodic one makes the wait a loop's
 * tick of its period, ending at the tick's next expiry (a deadline on CLOCK_MONOTONIC, not the
 * scheduler's clock: this thread's phase is then kept on that clock); a one-shot one is kept for judge.
 */
export function withEpollTimers(activity: ThreadActivity, timers: EpollTimers): void {
  if (activity.kind !== "wait") return;
  if (timers.tickMs !== undefined && !(activity.timed && (activity.timeoutMs ?? Infinity) <= timers.tickMs)) {
    activity.timed = true;
    activity.timeoutMs = Math.round(timers.tickMs);
    activity.absolute = true;
    if (timers.tickAt !== undefined) activity.deadline = timers.tickAt;
  }
  if (timers.oneShot !== undefined) activity.oneShot = timers.oneShot;
}

/** The wait's epoll set holds a one-shot timerfd armed since the rest (none then, or another expiry). */
export function newOneShot(activity: ThreadActivity, rest: RestWait | undefined): boolean {
  if (activity.kind !== "wait" || activity.oneShot === undefined) return false;
  return !(rest?.oneShotAt !== undefined && Math.abs(rest.oneShotAt - activity.oneShot.at) <= SAME_TIMER_MS);
}

export function judge(activity: ThreadActivity, rest: RestWait | undefined, mainThread: boolean): Verdict {
  switch (activity.kind) {
    case "stopped":
      return { rest: true, waitsForInput: false, timed: false };
    case "running":
      return { rest: false, state: "running" };
    case "disk":
      return { rest: false, state: "sleeping" };
  }
  const { waitKind, timed, nr, timeoutMs, call, oneShot } = activity;
  // A job-control shell runs its user's work in child processes: its helper threads' timed waits are
  // its own housekeeping (reading.ts shellHelper).
  if (activity.shellHelper) return { rest: true, waitsForInput: false, timed: false };
  // A one-shot timer armed since the rest (none then, or another expiry): a timer the input set.
  if (oneShot !== undefined && newOneShot(activity, rest))
    return { rest: false, state: "timer", timerDueMs: Math.round(oneShot.leftMs), call };
  if (call === "io_uring_enter" && !ringAtRest(activity, rest)) return { rest: false, state: "sleeping", call };
  // Bytes on their way to it (or its request on its way out, and an answer to come): it will wake.
  if (activity.inFlight) return { rest: false, state: "sleeping", call };
  if (!timed && waitKind === "input") return { rest: true, waitsForInput: true, timed: false };
  if (!timed && waitKind === "other-thread") return { rest: true, waitsForInput: false, timed: false };
  // A read of a pipe waits for its writer, who may be outside the group (a coprocess, a language
  // server): not its user. At rest only where it rested so (a worker on its self-pipe).
  if (waitKind === "pipe")
    return rest?.pipe ? { rest: true, waitsForInput: false, timed: false } : { rest: false, state: "sleeping", call };
  // A main thread waiting only for a signal, with no child to send one, waits for a timer no wait
  // shows (ualarm then pause) or for another process: at rest only where it rested so.
  if (waitKind === "signal")
    return rest?.signal ? { rest: true, waitsForInput: false, timed: false } : { rest: false, state: "sleeping", call };
  if (call === "futex" && !mainThread) return { rest: true, waitsForInput: false, timed: false };
  const sameAsRest = rest !== undefined && rest.nr === nr && rest.timed === timed && !unlikeRest(timeoutMs, rest);
  if (sameAsRest) return { rest: true, waitsForInput: waitKind === "input", timed };
  if (!timed) return { rest: false, state: "sleeping", call };
  return { rest: false, state: "timer", timerDueMs: timeoutMs, call };
}

/**
 * A wait for a ring's completions is at rest when its ring holds no more requests than at rest (a
 * timeout linked to the answer's write is work the input queued); with no ring rest known, when it
 * holds only requests polled on a file (the terminal's read: not a disk read a worker waits on).
 * Where the kernel shows no counters, only the same call as at rest is.
 */
function ringAtRest(activity: Extract<ThreadActivity, { kind: "wait" }>, rest: RestWait | undefined): boolean {
  const ring = activity.ring;
  if (ring === undefined) return rest?.nr === activity.nr;
  return ring.inFlight <= (rest?.ringInFlight ?? ring.polled);
}

/**
 * What to remember of a waiting thread as its rest, given what was remembered; undefined for a thread
 * not waiting. The same timed wait keeps the longest timeout seen: a look can catch a periodic wait
 * with only part of its period left, and a rest must not shrink to that.
 */
export function restOf(
  activity: ThreadActivity,
  known: RestWait | undefined,
  provisional: boolean,
): RestWait | undefined {
  // A shell's housekeeping is no rest to hold later waits to (judge rests it as it is).
  if (activity.kind !== "wait" || activity.shellHelper) return undefined;
  const rest = {
    nr: activity.nr,
    timed: activity.timed,
    timeoutMs: activity.timeoutMs,
    ...(provisional ? { provisional } : {}),
    ...(activity.oneShot !== undefined ? { oneShotAt: activity.oneShot.at } : {}),
    ...(activity.waitKind === "pipe" ? { pipe: true as const } : {}),
    ...(activity.waitKind === "signal" ? { signal: true as const } : {}),
    ...(activity.ring !== undefined ? { ringInFlight: activity.ring.inFlight } : {}),
  };
  if (
    known === undefined ||
    known.nr !== rest.nr ||
    known.timed !== rest.timed ||
    known.pipe !== rest.pipe ||
    known.signal !== rest.signal
  )
    return rest;
  // A ring's standing requests are re-armed as they complete: a look can catch one between the two.
  if (known.ringInFlight !== undefined && rest.ringInFlight !== undefined)
    rest.ringInFlight = Math.max(known.ringInFlight, rest.ringInFlight);
  if (known.timeoutMs === undefined || rest.timeoutMs === undefined) return rest;
  return { ...rest, timeoutMs: Math.max(known.timeoutMs, rest.timeoutMs) };
}
