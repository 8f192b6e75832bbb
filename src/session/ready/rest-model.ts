/**
 * What the ready oracle knows of a program's rest: each thread's rest wait, the foreground group at
 * rest, and the timed input waits learnt as rest too. Judges a look against them (busyIn).
 */
import { judge, restOf, type BusyState, type RestWait, type Verdict } from "./classify.ts";
import type { Busy } from "./outcome.ts";
import { onGrid } from "./grid.ts";
import { NewWorkerTimers } from "./new-workers.ts";
import type { Look, ThreadLook } from "./reading.ts";

/** A timed input wait seen this often ending in the rest with nothing written is taken as rest (mc). */
const QUIET_WAIT_REPEATS = 2;
/**
 * A program resting on a timed wait shorter than this (an event loop's tick, a spinner's frame, a polling
 * loop's sleep) can do work at a wake-up no wait shows beforehand: a timer due after its next tick hides
 * behind it, so its settles say they cannot tell. Longer rests (bun's 1 s, vim's 4 s, mc's 10 s) are
 * taken as rests: work hidden behind them would come a second or more later.
 */
export const UNSURE_TICK_MS = 1000;
/**
 * A long tick's wake-up due this soon is waited for (nearWake): a timer the input set that is due
 * within this long always shows, at the cost of waiting for that wake-up when it is this close.
 */
export const NEAR_WAKE_MS = 500;
/** The unit a wake-up's time is compared in (shortTick). */
const WAKE_STEP_MS = 5;
const MAX_SIBLINGS = 32; // sibling threads whose rests a thread's wait is also judged against (verdict)

export class RestModel {
  private readonly rest = new Map<number, RestWait>();
  /** The foreground group at rest, once one was seen. */
  restGroup: number | undefined;
  /**
   * Per thread, timed input waits ("nr:timeoutMs") that are rest besides the one in `rest`, with how often
   * each was seen ending in the rest with nothing written (see noteQuietWaits); one learnt after a timeout
   * (learnLongWaits) counts in full at once. Kept when `rest` changes: mc rests both in select with no
   * timeout (after Tab) and in select(10 s) (after an arrow key).
   */
  private readonly quietWaits = new Map<number, Map<string, number>>();
  /** Per thread, when its last wait judged rest ends: the phase of its periodic wake-ups. */
  private readonly phase = new Map<number, number>();
  /** Per process, its threads with a rest (at most MAX_SIBLINGS each). */
  private readonly threadsOf = new Map<number, number[]>();
  /** Workers parked until a deadline that did not rest so, in this settle (new-workers.ts). */
  private readonly newWorkers = new NewWorkerTimers(UNSURE_TICK_MS);
  /** Per thread, the timed input wait it is in during this settle, and its process's wchar then. */
  private readonly watching = new Map<number, { key: string; wchar: number; left: boolean }>();

  /** Take the waits of `seen` as the rest; at start-up only a look with no thread running counts. */
  remember(seen: Look, startup: boolean): void {
    if (startup && !allWaiting(seen)) return;
    this.restGroup = seen.tpgid;
    for (const thread of seen.threads) {
      const wait = restOf(thread.activity, this.rest.get(thread.tid), startup);
      if (wait === undefined) continue;
      this.rest.set(thread.tid, wait);
      const tids = this.threadsOf.get(thread.pid) ?? [];
      if (!tids.includes(thread.tid) && tids.length < MAX_SIBLINGS)
        this.threadsOf.set(thread.pid, [...tids, thread.tid]);
    }
    if (this.threadsOf.size > 4096) this.threadsOf.clear();
    if (this.rest.size > 4096) this.rest.clear(); // threads come and go; never grow without bound
    this.notePhase(seen);
  }

  /** Keep the deadline of each thread's wait judged rest in `seen`: the grid later waits are held to. */
  notePhase(seen: Look): void {
    for (const thread of seen.threads) {
      const a = thread.activity;
      if (a.kind !== "wait" || a.deadline === undefined) continue;
      if (this.verdict(thread).rest) this.phase.set(thread.tid, a.deadline);
    }
    if (this.phase.size > 4096) this.phase.clear();
  }

  /**
   * The tick `seen` rests on, when a thread rests on a timed wait shorter than UNSURE_TICK_MS: the
   * settle cannot tell whether work waits behind it. A wait for input (an event loop's tick), or any
   * other: a thread that wakes every 50 ms to poll its input or to count ticks, or a UI thread on
   * queue.get(timeout=0.1), does its work at a wake-up no wait shows beforehand. A worker's timed
   * futex counts only on a thread of the program's own (ownTimedFutex): runtimes park their helpers
   * with deadlines, short ones too (bun's mi-scavenger). `wake` names when those waits end: it changes
   * once the tick has woken and waits again.
   */
  shortTick(seen: Look): { tickMs: number; wake: string } | undefined {
    let tickMs: number | undefined;
    const wakes: string[] = [];
    for (const { thread, verdict } of this.verdicts(seen)) {
      const a = thread.activity;
      if (!verdict.rest || a.kind !== "wait" || !(verdict.timed || ownTimedFutex(thread))) continue;
      const period = Math.max(this.rest.get(thread.tid)?.timeoutMs ?? 0, a.timeoutMs ?? 0);
      if (period <= 0 || period >= UNSURE_TICK_MS) continue;
      tickMs = Math.min(tickMs ?? period, period);
      wakes.push(wakeOf(thread.tid, a));
    }
    return tickMs === undefined ? undefined : { tickMs, wake: wakes.join() };
  }

  /**
   * A wake-up of a long tick (UNSURE_TICK_MS or more) due within NEAR_WAKE_MS: a thread back at rest
   * in a timed wait that began with less than that to go. A timer the input set that is due after
   * that wake-up hides behind it (the wait ends at its nearest timer: bun keys a setTimeout(150) 29 ms
   * before its 1 s tick and waits the 29 ms); after the wake-up its next wait shows it. So the settle
   * waits for it. A wait that began with more to go would have ended at any timer due within that.
   */
  nearWake(seen: Look): { tickMs: number; wake: string } | undefined {
    let dueMs: number | undefined;
    const wakes: string[] = [];
    for (const { thread, verdict } of this.verdicts(seen)) {
      const a = thread.activity;
      if (!verdict.rest || !verdict.timed || a.kind !== "wait" || a.timeoutMs === undefined) continue;
      if (a.timeoutMs >= NEAR_WAKE_MS || (a.call === "futex" && thread.tid !== thread.pid)) continue;
      dueMs = Math.min(dueMs ?? a.timeoutMs, a.timeoutMs);
      wakes.push(wakeOf(thread.tid, a));
    }
    return dueMs === undefined ? undefined : { tickMs: dueMs, wake: wakes.join() };
  }

  /** The threads of `seen` not at rest, each with its verdict. */
  busyThreads(seen: Look): { thread: ThreadLook; verdict: Verdict }[] {
    return this.verdicts(seen).filter(({ verdict }) => !verdict.rest);
  }

  private verdicts(seen: Look): { thread: ThreadLook; verdict: Verdict }[] {
    return seen.threads.map((thread) => ({ thread, verdict: this.verdict(thread) }));
  }

  /** Some thread of `seen` is at rest on a timer. */
  restsOnTimer(seen: Look): boolean {
    return this.verdicts(seen).some(({ verdict }) => verdict.rest && verdict.timed);
  }

  /** judge() against the thread's rest, or a timed input wait learnt as rest too (quietWaits). */
  private verdict(thread: ThreadLook): Verdict {
    let verdict = this.judged(thread, thread.tid);
    // Runtimes with their own scheduler (Go) move a waiting role between threads: a wait that was a
    // sibling thread's rest is rest here too.
    for (const sibling of verdict.rest || verdict.state === "running" ? [] : (this.threadsOf.get(thread.pid) ?? [])) {
      if (sibling === thread.tid) continue;
      const other = this.judged(thread, sibling);
      if (other.rest && this.rest.get(sibling)?.nr === (thread.activity as { nr?: number }).nr) {
        verdict = other;
        break;
      }
    }
    const learnt = this.learntQuietWait(thread);
    return !verdict.rest && learnt
      ? { rest: true, waitsForInput: true, timed: true }
      : this.newWorkers.judge(thread, verdict, this.rest.get(thread.tid));
  }

  /** The thread is in a timed input wait learnt as rest besides its own (noteQuietWaits). */
  private learntQuietWait(thread: ThreadLook): boolean {
    const key = timedInputWait(thread);
    return key !== undefined && (this.quietWaits.get(thread.tid)?.get(key) ?? 0) >= QUIET_WAIT_REPEATS;
  }

  /**
   * The timed rest of a periodic loop, judged by the phase of its wake-ups when it is known: in the
   * rest's syscall, a full period (from a wake-up) or a shorter wait ending on the grid (the rest of
   * the current period) is rest; a shorter wait ending off the grid is a timer. Without a known phase,
   * judge()'s verdict (a timeout from half to twice the rest's) stands.
   */
  private judged(thread: ThreadLook, restOfTid: number): Verdict {
    return this.onGrid(thread, judge(thread.activity, this.rest.get(restOfTid), thread.tid === thread.pid), restOfTid);
  }

  private onGrid(thread: ThreadLook, verdict: Verdict, restOfTid: number): Verdict {
    return onGrid(thread.activity, this.rest.get(restOfTid), this.phase.get(restOfTid)) ?? verdict;
  }

  /** A settle starts: the timed waits watched in the last one are forgotten. */
  stopWatching(): void {
    this.watching.clear();
    this.newWorkers.clear();
  }

  /**
   * Learn the timed input waits a thread goes through after an input and leaves for its rest having
   * written nothing (mc: select(1 s) after every key, then its rest): seen QUIET_WAIT_REPEATS times,
   * such a wait is taken as rest too. Written is the process's wchar (a write counts at the syscall,
   * not when the bytes reach us); a wait that ends in writing, or in anything but the rest, is never
   * learnt (a raw-mode app that answers after select(400) writes when the wait ends).
   */
  noteQuietWaits(seen: Look): void {
    for (const thread of seen.threads) {
      const wchar = seen.io.get(thread.pid)?.wchar;
      if (wchar === undefined) continue;
      const key = timedInputWait(thread);
      const watched = this.watching.get(thread.tid);
      if (watched !== undefined && key === watched.key && !watched.left) continue;
      if (watched !== undefined && thread.activity.kind !== "wait") {
        watched.left = true;
        continue;
      }
      if (watched !== undefined) {
        this.watching.delete(thread.tid);
        if (this.verdict(thread).rest && wchar === watched.wchar) this.countQuietWait(thread.tid, watched.key, 1);
      }
      if (key !== undefined && !this.verdict(thread).rest) this.watching.set(thread.tid, { key, wchar, left: false });
    }
  }

  private countQuietWait(tid: number, key: string, by: number): void {
    const counts = this.quietWaits.get(tid) ?? new Map<string, number>();
    counts.set(key, (counts.get(key) ?? 0) + by);
    this.quietWaits.set(tid, counts);
    if (this.quietWaits.size > 4096) this.quietWaits.clear(); // bounded, as the rests are
  }

  /**
   * After a timeout: a thread whose rest is only known from start-up, and that now waits for input
   * with a timeout longer than the whole cap, has changed its rest (mc rests in select(10 s) after
   * its first key, where it started in select with none). It is learnt, so the next input is not
   * held to the cap again. A rest seen after an idle settle is never replaced this way.
   */
  learnLongWaits(seen: Look, capMs: number): void {
    for (const thread of seen.threads) {
      const activity = thread.activity;
      const known = this.rest.get(thread.tid);
      if (known !== undefined && !known.provisional) continue;
      if (
        activity.kind !== "wait" ||
        activity.waitKind !== "input" ||
        !activity.timed ||
        (activity.timeoutMs ?? 0) < capMs
      )
        continue;
      this.rest.set(thread.tid, { nr: activity.nr, timed: true, timeoutMs: activity.timeoutMs });
      this.countQuietWait(thread.tid, `${activity.nr}:${activity.timeoutMs}`, QUIET_WAIT_REPEATS);
    }
  }

  /**
   * What keeps `seen` from being at rest, or undefined when it is at rest. `sessionPid` is the group
   * expected to hold the terminal while no rest group is known.
   */
  busyIn(seen: Look, sessionPid: number): Busy | undefined {
    const busy = this.busyThreads(seen);
    const order: BusyState[] = ["running", "timer", "sleeping"];
    busy.sort((a, b) => order.indexOf(stateOf(a.verdict)) - order.indexOf(stateOf(b.verdict)));
    const first = busy[0];
    if (first !== undefined && !first.verdict.rest) {
      const { verdict, thread } = first;
      return {
        pid: thread.pid,
        command: thread.command,
        state: verdict.state,
        ...(verdict.timerDueMs !== undefined ? { timerDueMs: verdict.timerDueMs } : {}),
      };
    }
    if (seen.tpgid !== (this.restGroup ?? sessionPid)) {
      // Another group has the terminal (a shell running a command) and none of its threads is busy:
      // it waits, but not for us.
      return { pid: seen.tpgid, command: seen.leader ?? "?", state: "sleeping" };
    }
    return undefined;
  }
}

/**
 * When a thread's wait ends, as a key that changes once it has woken and waits again: its deadline in
 * steps of WAKE_STEP_MS (a timerfd tick's deadline is read anew at each look, with a little jitter).
 */
function wakeOf(tid: number, a: { deadline?: number; timeoutMs?: number }): string {
  return `${tid}@${a.deadline === undefined ? a.timeoutMs : Math.round(a.deadline / WAKE_STEP_MS)}`;
}

/**
 * A worker thread of the program's own (named as its process: runtimes name their helpers, as bun's
 * "mi-scavenger"; Go's and a C or Python program's threads keep the command's name) in a timed futex.
 * judge rests every worker's futex untimed; this is the wait's own deadline.
 */
function ownTimedFutex(thread: ThreadLook): boolean {
  const a = thread.activity;
  return (
    a.kind === "wait" &&
    a.call === "futex" &&
    a.timed &&
    !a.shellHelper &&
    thread.tid !== thread.pid &&
    thread.name === thread.command
  );
}

/** Every thread of `seen` waits or is stopped: none is running. */
export function allWaiting(seen: Look): boolean {
  return seen.threads.every((t) => t.activity.kind === "wait" || t.activity.kind === "stopped");
}

/** "nr:timeoutMs" of a thread in a timed wait for input with a known timeout, else undefined. */
function timedInputWait(thread: ThreadLook): string | undefined {
  const a = thread.activity;
  if (a.kind !== "wait" || a.waitKind !== "input" || !a.timed || a.timeoutMs === undefined) return undefined;
  return `${a.nr}:${a.timeoutMs}`;
}

function stateOf(verdict: Verdict): BusyState {
  return verdict.rest ? "sleeping" : verdict.state;
}
