/**
 * Signal timers a process may have armed, which no wait shows. /proc shows neither a timer's time
 * nor, for setitimer and alarm, that one is armed. It does show where a timer signal would go:
 * - POSIX timers (timer_create) are listed in /proc/<pid>/timers (proc(5)), SIGEV_THREAD ones too
 *   (glibc's helper thread takes their signal);
 * - a timer signal blocked in the main thread (SigBlk in /proc/<pid>/status) is taken by a signalfd
 *   or sigwait: the program routes it into its loop by design;
 * - a timer signal caught (SigCgt): a handler for SIGALRM (alarm, setitimer, python's
 *   signal.setitimer, perl's $SIG{ALRM}). Not in a job-control shell, which ignores SIGTSTP (POSIX
 *   XCU 2.11; bash, zsh, fish and dash do) and catches SIGALRM for TMOUT and `read -t`; nor in a
 *   program that catches nearly every signal (Go's runtime, top), where a caught SIGALRM says nothing;
 * - in such a program, a thread that blocks most signals is a signal-mask thread: Go's os/signal
 *   keeps one whose mask blocks every signal that no signal.Notify asked for (runtime/signal_unix.go,
 *   ensureSigM). A timer signal left open there is one the program listens to; one blocked there is
 *   not routed anywhere, whichever thread that is.
 */
import { basename } from "node:path";
import { listProc, procLink, readProc } from "./proc.ts";

/** Signals a timer sends: SIGALRM (setitimer ITIMER_REAL, alarm), SIGVTALRM, SIGPROF (signal(7)). */
const TIMER_SIGNALS = [14, 26, 27];
/** The real-time signals an application may use (glibc keeps 32 and 33): timer_create's usual choice. */
const FIRST_RT_SIGNAL = 34;
const LAST_RT_SIGNAL = 64;
const SIGTSTP = 20;
/** A program catching at least this many of the 31 standard signals catches them all, by design. */
const CATCHES_ALL = 24;
/** A thread blocking at least this many of the 31 standard signals keeps a signal mask by design. */
const BLOCKS_MOST = 8;
/** The timer signals a mask can leave open (Go never blocks SIGPROF, so it says nothing there). */
const MASKABLE_TIMER_SIGNALS = [14, 26];
/** Threads whose masks are read, at most (a catch-all program's; Go keeps a few per core). */
const MAX_MASK_THREADS = 64;

/** A signal's bit in a /proc/<pid>/status mask (hex, bit n-1 for signal n). */
function inMask(mask: bigint, signal: number): boolean {
  return ((mask >> BigInt(signal - 1)) & 1n) === 1n;
}

/** A mask line of /proc/<pid>/status ("SigBlk"), or undefined. */
function maskOf(status: string, name: string): bigint | undefined {
  const hex = new RegExp(`^${name}:\\s*([0-9a-f]+)$`, "m").exec(status)?.[1];
  return hex === undefined ? undefined : BigInt(`0x${hex}`);
}

/** /proc/<pid>/timers lists a POSIX timer (one "ID:" line each). */
const hasPosixTimer = (timers: string | undefined): boolean => timers !== undefined && /^ID:/m.test(timers);

/** How many of the 31 standard signals `mask` holds. */
function standardIn(mask: bigint): number {
  let count = 0;
  for (let signal = 1; signal <= 31; signal++) if (inMask(mask, signal)) count++;
  return count;
}

/** Where a timer signal of `pid` could go unseen, in words ("a POSIX timer"), or undefined. */
export function signalTimerSource(pid: number): string | undefined {
  const timers = readProc(`/proc/${pid}/timers`);
  // A POSIX timer says it all: status is not read.
  if (hasPosixTimer(timers)) return signalTimerSourceIn(timers, undefined);
  const threadStatuses = () =>
    listProc(`/proc/${pid}/task`)
      .slice(0, MAX_MASK_THREADS)
      .map((tid) => readProc(`/proc/${pid}/task/${tid}/status`) ?? "");
  return signalTimerSourceIn(timers, readProc(`/proc/${pid}/status`), threadStatuses);
}

/**
 * signalTimerSource from the texts of /proc/<pid>/timers and /proc/<pid>/status (either may be
 * absent), and of its threads' status files, read only for a program that catches every signal.
 */
export function signalTimerSourceIn(
  timers: string | undefined,
  status: string | undefined,
  threadStatuses: () => string[] = () => [],
): string | undefined {
  if (hasPosixTimer(timers)) return "a POSIX timer";
  if (status === undefined) return undefined;
  const caught = maskOf(status, "SigCgt") ?? 0n;
  const catchesAll = standardIn(caught) >= CATCHES_ALL;
  if (catchesAll) {
    // Go's signal-mask thread blocks what nobody listens to: its mask says what is listened to.
    const masks = threadStatuses().map((text) => maskOf(text, "SigBlk") ?? 0n);
    const maskThread = masks.find((mask) => standardIn(mask) >= BLOCKS_MOST);
    if (maskThread !== undefined) {
      const open = MASKABLE_TIMER_SIGNALS.find((signal) => !inMask(maskThread, signal));
      return open === undefined ? undefined : `signal ${open} listened to (its signal-mask thread leaves it open)`;
    }
  }
  const blocked = maskOf(status, "SigBlk") ?? 0n;
  const rtSignals = Array.from({ length: LAST_RT_SIGNAL - FIRST_RT_SIGNAL + 1 }, (_, i) => FIRST_RT_SIGNAL + i);
  const routed = [...TIMER_SIGNALS, ...rtSignals].find((signal) => inMask(blocked, signal));
  if (routed !== undefined) return `signal ${routed} blocked for a signalfd or sigwait`;
  const handlers = ownHandlers(status);
  const handled = TIMER_SIGNALS.find((signal) => inMask(handlers, signal));
  return handled === undefined ? undefined : `a handler for signal ${handled}`;
}

/**
 * The signals the process of /proc/<pid>/status's text catches as its own: none in a job-control
 * shell (its SIGALRM is TMOUT's and `read -t`'s) or in a program that catches nearly every signal,
 * where a handler says nothing.
 */
function ownHandlers(status: string): bigint {
  const caught = maskOf(status, "SigCgt") ?? 0n;
  return standardIn(caught) >= CATCHES_ALL || jobControlShellIn(status) ? 0n : caught;
}

/** How a settle says what an alarm handler hides (AtRest.unseen). */
export const ALARM_UNSEEN = "it catches SIGALRM, and no wait shows an alarm it set (alarm, setitimer)";
const SIGALRM = 14;

/**
 * Process `pid` catches SIGALRM, which alarm() and setitimer(ITIMER_REAL) raise: /proc shows neither
 * (no armed state, no time), so an alarm set by any input may be pending while it rests (fresh O's php
 * `pcntl_alarm(1)`). SIGVTALRM and SIGPROF count CPU time, which a resting program does not use.
 */
export function catchesAlarm(pid: number): boolean {
  const status = readProc(`/proc/${pid}/status`);
  return status !== undefined && catchesAlarmIn(status, () => procLink(`/proc/${pid}/exe`));
}

/**
 * catchesAlarm from /proc/<pid>/status's text and the path of its executable (read only when it
 * catches SIGALRM as its own: ownHandlers). Not ruby, which catches SIGALRM for every program (its
 * `trap`) and has no alarm call of its own.
 */
export function catchesAlarmIn(status: string, exe: () => string | undefined): boolean {
  return inMask(ownHandlers(status), SIGALRM) && !/^ruby/.test(basename(exe() ?? ""));
}

/**
 * A job-control shell ignores SIGTSTP (POSIX XCU 2.11; bash, zsh, fish and dash do, and the programs
 * they start get it back): from /proc/<pid>/status's text. It runs its user's work in child
 * processes; its own threads (fish's I/O threads) and timers (TMOUT) are its housekeeping.
 */
export function jobControlShellIn(status: string): boolean {
  return inMask(maskOf(status, "SigIgn") ?? 0n, SIGTSTP);
}

const shells = new Map<string, boolean>();
/** jobControlShellIn for process `pid` running `command`, read once per pid and command (an exec changes it). */
export function jobControlShell(pid: number, command: string): boolean {
  const key = `${pid}:${command}`;
  let shell = shells.get(key);
  if (shell === undefined) {
    const status = readProc(`/proc/${pid}/status`);
    shell = status !== undefined && jobControlShellIn(status);
    if (shells.size >= 1024) shells.clear();
    shells.set(key, shell);
  }
  return shell;
}
