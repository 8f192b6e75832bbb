/**
 * The ready oracle: is the terminal's foreground process group back at rest after an input?
 * See docs/ready-oracle.md for the rule; classify.ts judges one thread, reading.ts reads /proc.
 *
 * One oracle per session. It remembers each thread's rest (the wait it was in when the program was
 * last known to be waiting for its user) and the foreground group at rest, and judges every look
 * against them.
 */
import { cancelled } from "../../errors.ts";
import type { Session } from "../session.ts";
import { judge, restOf, type BusyState, type RestWait, type Verdict } from "./classify.ts";
import { procCost } from "./proc.ts";
import { look, scanGroup, terminalOf, type Look, type ThreadLook } from "./reading.ts";
import { hostArch, type Arch } from "./syscalls.ts";

/**
 * A program that has neither read its input nor written anything this long after it is taken to
 * ignore it (cooked mode with no echo, a key it does not read). Until then a program still in its
 * rest may simply not have been handed the key yet: the tty layer delivers input from a kernel
 * worker, and on a loaded machine (load 14 on 2 cores) that took over 50 ms.
 */
export const NO_RESPONSE_MS = 250;
/**
 * Back at rest, output the program wrote may still be on its way to the emulator (the PTY's reader
 * thread can be starved for tens of ms on a loaded machine: measured 20+ ms at load 14 on 2 cores).
 * Wait for it until the bytes received cover the bytes written, or at most this long (a program that
 * also writes files or eventfds never reaches that).
 */
const DRAIN_GRACE_MS = 100;
/**
 * Start-up rule (docs/ready-oracle.md): the rest is the first wait after the start-up output has been
 * quiet STARTUP_QUIET_MS with no thread running. The first input waits for that moment at most
 * STARTUP_LOOK_MS (a spinner is never quiet: then the last look with no thread running is taken).
 * Runtimes settle into their idle rhythm after start-up (bun waits 100 ms at a time for ~150 ms,
 * then 1000), and a rest taken during that would pass a pending timer as rest.
 */
const STARTUP_QUIET_MS = 200;
const STARTUP_LOOK_MS = 500;
/** Looks are 1 ms apart at first, then an eighth of the time waited so far, at most this far apart. */
const MAX_LOOK_GAP_MS = 25;
/** A timed input wait seen this often ending in the rest with nothing written is taken as rest (mc). */
const QUIET_WAIT_REPEATS = 2;
/** Output in this window before an input, from a program that rests on a timer, makes the settle `periodic`. */
const PERIODIC_WINDOW_MS = 1000;

export type SettledBy = "idle" | "periodic" | "quiet" | "timeout" | "exit" | "waitFor" | "fixed";

export interface Busy {
  pid: number;
  command: string;
  state: BusyState;
  /** The timeout of the timed wait it is in (the length it asked for), when known. */
  timerDueMs?: number;
}

export interface ReadyOutcome {
  settledBy: SettledBy;
  /** The program that was judged: the foreground group's leader. */
  program?: string;
  busy?: Busy;
  /** /proc reads this settle made, and the time they took. */
  procReads: number;
  procMs: number;
}

/** Before an input: what the program looked like. */
export interface Baseline {
  look: Look;
  bytesOut: number;
  lastOutputAt: number;
}

export class ReadyOracle {
  /** Why the oracle cannot run for this session, or undefined when it can. */
  unavailable: string | undefined;
  private readonly arch: Arch | null = hostArch();
  private readonly rest = new Map<number, RestWait>();
  private restGroup: number | undefined;
  /** True while the program is known to be at rest since the last input (an oracle settle, or a look that said so). */
  private confirmed = false;
  private inputs = 0;
  private startupTried = false;
  private bytesAtLastSettle: number | undefined;
  private lastSettleAt = 0;
  private inputsAtLastSettle = 0;
  /**
   * Per thread, timed input waits ("nr:timeoutMs") that are rest besides the one in `rest`, with how
   * often each was seen ending in the rest with nothing written (see noteQuietWaits); a long wait learnt
   * after a timeout (learnLongWaits) counts in full at once. Kept when `rest` changes: mc rests both in
   * select with no timeout (after Tab) and in select(10 s) (after an arrow key).
   */
  private readonly quietWaits = new Map<number, Map<string, number>>();
  /** Per thread, the timed input wait it is in during this settle, and its process's wchar then. */
  private readonly watching = new Map<number, { key: string; wchar: number; left: boolean }>();
  /** The program has been seen writing on its own while at rest (a spinner, a clock): see periodic(). */
  private writesOnItsOwn = false;

  constructor(private readonly session: Session) {
    this.unavailable = this.check();
    session.onInput(() => {
      this.inputs++;
      this.confirmed = false;
    });
  }

  private check(): string | undefined {
    if (this.session.config.ready === "quiet") return "TUI_TESTER_READY=quiet";
    if (process.platform !== "linux") return `no /proc on ${process.platform}`;
    if (this.arch === null) return `no syscall table for ${process.arch}`;
    try {
      const probe = terminalOf(this.session.pid);
      if (probe === undefined) return "the process is gone";
      look(this.arch, this.session.pid, [this.session.pid]);
      return undefined;
    } catch (error) {
      return `/proc denied (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
  }

  get available(): boolean {
    return this.unavailable === undefined;
  }

  /** A full look at the foreground group (one /proc scan for its members). */
  private lookNow(known?: Look): Look | undefined {
    const terminal = terminalOf(this.session.pid);
    if (terminal === undefined) return undefined;
    const tpgid = terminal.tpgid > 0 ? terminal.tpgid : this.session.pid;
    // The members found by the last scan, while the same group has the terminal; else a new scan.
    const pids = known !== undefined && known.tpgid === tpgid ? known.pids : this.members(tpgid, terminal.session);
    const seen = look(this.arch!, tpgid, pids);
    return seen;
  }

  /** The group's processes, from the session's process tree (reading.ts scanGroup). */
  private members(tpgid: number, session: number): number[] {
    return scanGroup(tpgid, session, this.session.pid);
  }

  private guarded<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      this.unavailable = `/proc denied (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      return undefined;
    }
  }

  /** Called just before an input is written. Undefined when the oracle cannot be used. */
  async baseline(): Promise<Baseline | undefined> {
    if (!this.available || !this.session.running) return undefined;
    let first = this.guarded(() => this.lookNow());
    if (first === undefined) return undefined;
    if (this.restGroup === undefined && !this.startupTried) {
      // Tried once from an input: a program never seen waiting does not cost every input the wait.
      this.startupTried = true;
      first = await this.learnStartupRest(first, STARTUP_LOOK_MS);
      if (first === undefined) return undefined;
    } else if (this.confirmed) {
      this.remember(first, false);
    }
    this.noteOwnWrites();
    return { look: first, bytesOut: this.session.bytesOut, lastOutputAt: this.session.lastOutputAt };
  }

  /**
   * The start-up rule: take as rest the first look with no thread running once the output has been
   * quiet STARTUP_QUIET_MS, looking for at most `forMs`. Returns the last look (undefined when /proc
   * failed). Used before the first input settled here, and by wait_for_idle when no rest is known
   * (the inputs before it may all have used waitFor or a fixed wait, which learn nothing).
   */
  private async learnStartupRest(first: Look, forMs: number): Promise<Look | undefined> {
    const until = performance.now() + forMs;
    let last = first;
    // Only the session's own group at rest counts: an interactive shell hands the terminal to a
    // command's group while it runs, and that group is not the rest.
    const resting = (seen: Look) => allWaiting(seen) && seen.tpgid === this.session.pid;
    let waiting = resting(first) ? first : undefined;
    const settled = () => waiting !== undefined && performance.now() - this.session.lastOutputAt >= STARTUP_QUIET_MS;
    while (!settled() && performance.now() < until && this.session.running) {
      await Bun.sleep(Math.min(10, Math.max(1, until - performance.now())));
      const again = this.guarded(() => this.lookNow());
      if (again === undefined) return undefined;
      last = again;
      if (resting(again)) waiting = again;
    }
    if (waiting !== undefined) this.remember(waiting, true);
    return last;
  }

  /** Take the waits of `seen` as the rest; at start-up only a look with no thread running counts. */
  private remember(seen: Look, startup: boolean): void {
    if (startup && !allWaiting(seen)) return;
    this.restGroup = seen.tpgid;
    for (const thread of seen.threads) {
      const wait = restOf(thread.activity, this.rest.get(thread.tid), startup);
      if (wait !== undefined) this.rest.set(thread.tid, wait);
    }
    if (this.rest.size > 4096) this.rest.clear(); // threads come and go; never grow without bound
  }

  private verdicts(seen: Look): { thread: ThreadLook; verdict: Verdict }[] {
    return seen.threads.map((thread) => ({ thread, verdict: this.verdict(thread) }));
  }

  /** judge() against the thread's rest, or a timed input wait learnt as rest too (quietWaits). */
  private verdict(thread: ThreadLook): Verdict {
    const verdict = judge(thread.activity, this.rest.get(thread.tid), thread.tid === thread.pid);
    const key = timedInputWait(thread);
    const learnt = key !== undefined && (this.quietWaits.get(thread.tid)?.get(key) ?? 0) >= QUIET_WAIT_REPEATS;
    return !verdict.rest && learnt ? { rest: true, waitsForInput: true, timed: true } : verdict;
  }

  /**
   * Learn the timed input waits a thread goes through after an input and leaves for its rest having
   * written nothing (mc: select(1 s) after every key, then its rest): seen QUIET_WAIT_REPEATS times,
   * such a wait is taken as rest too. Written is the process's wchar (a write counts at the syscall,
   * not when the bytes reach us); a wait that ends in writing, or in anything but the rest, is never
   * learnt (a raw-mode app that answers after select(400) writes when the wait ends).
   */
  private noteQuietWaits(seen: Look): void {
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

  /** What keeps `seen` from being at rest, or undefined when it is at rest. */
  private busyIn(seen: Look): Busy | undefined {
    const verdicts = this.verdicts(seen);
    const busy = verdicts.filter((v) => !v.verdict.rest);
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
    if (seen.tpgid !== (this.restGroup ?? this.session.pid)) {
      // Another group has the terminal (a shell running a command) and none of its threads is busy:
      // it waits, but not for us.
      return { pid: seen.tpgid, command: seen.leader ?? "?", state: "sleeping" };
    }
    return undefined;
  }

  /**
   * Wait until the program is back at rest after an input (or, without a baseline, at rest now) and
   * the emulator has parsed what it wrote; at most `capMs` from `since`.
   */
  async settle(
    baseline: Baseline | undefined,
    since: number,
    capMs: number,
    signal?: AbortSignal,
  ): Promise<ReadyOutcome> {
    const cost = { reads: procCost.reads, ms: procCost.ms };
    const outcome = (settledBy: SettledBy, program?: string, busy?: Busy): ReadyOutcome => ({
      settledBy,
      ...(program !== undefined ? { program } : {}),
      ...(busy !== undefined ? { busy } : {}),
      procReads: procCost.reads - cost.reads,
      procMs: Math.round((procCost.ms - cost.ms) * 100) / 100,
    });
    const base = baseline?.look;
    if (base === undefined && this.restGroup === undefined && this.available && this.session.running) {
      const first = this.guarded(() => this.lookNow());
      if (first !== undefined) await this.learnStartupRest(first, Math.min(STARTUP_LOOK_MS, capMs / 2));
    }
    const bytesAtStart = baseline?.bytesOut ?? this.session.bytesOut;
    this.watching.clear();
    let known = base;
    let restSince: { at: number; bytes: number; scanned: boolean } | undefined;
    for (;;) {
      if (signal?.aborted) throw cancelled("The wait");
      if (!this.session.running) {
        await this.session.whenExited();
        return outcome("exit");
      }
      const now = performance.now();
      const seen = this.guarded(() => this.lookNow(restSince === undefined ? known : undefined));
      if (seen === undefined) {
        if (!this.available) return outcome("quiet");
        await Bun.sleep(1); // the process is exiting; the next turn reports the exit
        continue;
      }
      known = seen;
      if (base !== undefined) this.noteQuietWaits(seen);
      const busy = this.busyIn(seen);
      const responded = base === undefined || this.responded(base, seen, bytesAtStart, now - since);
      if (busy === undefined && responded) {
        if (restSince === undefined) restSince = { at: now, bytes: this.session.bytesOut, scanned: false };
        else if (
          this.session.bytesOut === restSince.bytes &&
          (this.drained(base, seen, bytesAtStart) || now - restSince.at >= DRAIN_GRACE_MS)
        ) {
          await this.session.emulator.flushed();
          if (this.session.bytesOut === restSince.bytes) {
            this.confirmed = true;
            this.remember(seen, false);
            if (base === undefined) this.noteOwnWrites();
            const periodic = this.periodic(seen);
            this.bytesAtLastSettle = this.session.bytesOut;
            this.lastSettleAt = performance.now();
            this.inputsAtLastSettle = this.inputs;
            return outcome(periodic ? "periodic" : "idle", seen.leader);
          }
        }
        if (restSince !== undefined) restSince.bytes = this.session.bytesOut;
      } else {
        restSince = undefined;
      }
      const elapsed = performance.now() - since;
      if (elapsed >= capMs) {
        await this.session.emulator.flushed();
        this.learnLongWaits(seen, capMs);
        return outcome(
          "timeout",
          seen.leader,
          busy ?? (responded ? undefined : { pid: seen.tpgid, command: seen.leader ?? "?", state: "sleeping" }),
        );
      }
      const gap = restSince !== undefined ? 1 : Math.min(MAX_LOOK_GAP_MS, Math.max(1, elapsed / 8));
      await Bun.sleep(Math.min(gap, capMs - elapsed));
    }
  }

  /**
   * After a timeout: a thread whose rest is only known from start-up, and that now waits for input
   * with a timeout longer than the whole cap, has changed its rest (mc rests in select(10 s) after
   * its first key, where it started in select with none). It is learnt, so the next input is not
   * held to the cap again. A rest seen after an idle settle is never replaced this way.
   */
  private learnLongWaits(seen: Look, capMs: number): void {
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

  /** Has the program taken the input? It read, wrote (from a rest with no timer), changed group, or had time. */
  private responded(base: Look, seen: Look, bytesAtStart: number, elapsed: number): boolean {
    if (seen.tpgid !== base.tpgid || seen.pids.join() !== base.pids.join()) return true;
    if (sum(seen, "rchar") > sum(base, "rchar", seen.pids)) return true;
    const timedRest = this.verdicts(seen).some(({ verdict }) => verdict.rest && verdict.timed);
    if (!timedRest && this.session.bytesOut > bytesAtStart) return true;
    return elapsed >= NO_RESPONSE_MS;
  }

  /**
   * Everything the group wrote since the input has reached us: bytes received ≥ bytes written (echo
   * and CRLF only add). Counted over the processes of this look: a reaped child's writes are in its
   * parent's counter from then on (the kernel adds them at wait()), so they must not be kept apart.
   */
  private drained(base: Look | undefined, seen: Look, bytesAtStart: number): boolean {
    if (base === undefined) return false;
    let written = 0;
    for (const [pid, io] of seen.io) written += io.wchar - (base.io.get(pid)?.wchar ?? 0);
    return this.session.bytesOut - bytesAtStart >= written;
  }

  /**
   * Before an input: did the program write while it was at rest since the last settle, with no input
   * since? Output
   * then is its own (a redraw on a timer). Before the first settle nothing is known (start-up
   * output is not a redraw), so the first input of a spinner settles as idle. Inputs sent back to
   * back leave no gap to see it in, so the finding stays until a gap of PERIODIC_WINDOW_MS without
   * output says otherwise.
   */
  private noteOwnWrites(): void {
    const now = performance.now();
    if (this.bytesAtLastSettle === undefined) return;
    // Output after an input that was not settled here (waitFor, fixed) may be that input's answer.
    if (this.inputs !== this.inputsAtLastSettle) return;
    if (this.session.bytesOut > this.bytesAtLastSettle) this.writesOnItsOwn = true;
    else if (now - this.lastSettleAt >= PERIODIC_WINDOW_MS) this.writesOnItsOwn = false;
  }

  /** Back at rest, with a thread resting on a timer, and writing on its own: a periodic redraw, not waited out. */
  private periodic(seen: Look): boolean {
    if (!this.writesOnItsOwn) return false;
    return this.verdicts(seen).some(({ verdict }) => verdict.rest && verdict.timed);
  }

  /** One look, for a fixed or waitFor settle: is the program at rest now? Undefined when unknown. */
  atRestNow(): { atRest: boolean; busy?: Busy; program?: string } | undefined {
    // Without a known rest a timer wait cannot be judged (bun idles on a 1 s timer): unknown.
    if (!this.available || !this.session.running || this.restGroup === undefined) return undefined;
    const seen = this.guarded(() => this.lookNow());
    if (seen === undefined) return undefined;
    const busy = this.busyIn(seen);
    if (busy === undefined) this.confirmed = true;
    return { atRest: busy === undefined, program: seen.leader, ...(busy ? { busy } : {}) };
  }
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

function allWaiting(seen: Look): boolean {
  return seen.threads.every((t) => t.activity.kind === "wait" || t.activity.kind === "stopped");
}

/** Sum of a counter over the processes of `seen` (only those in `only`, when given). */
function sum(seen: Look, key: "rchar" | "wchar", only?: number[]): number {
  let total = 0;
  for (const [pid, io] of seen.io) if (only === undefined || only.includes(pid)) total += io[key];
  return total;
}

const oracles = new WeakMap<Session, ReadyOracle>();

/** The session's oracle (made on first use). */
export function readyOracle(session: Session): ReadyOracle {
  let oracle = oracles.get(session);
  if (oracle === undefined) {
    oracle = new ReadyOracle(session);
    oracles.set(session, oracle);
  }
  return oracle;
}
