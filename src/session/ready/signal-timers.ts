/**
 * Signal timers a process may have armed, which no wait shows. /proc shows neither a timer's time
 * nor, for setitimer and alarm, that one is armed. It does show where a timer signal would go:
 * - POSIX timers (timer_create) are listed in /proc/<pid>/timers (proc(5)), SIGEV_THREAD ones too
 *   (glibc's helper thread takes their signal);
 * - a timer signal blocked in the main thread (SigBlk in /proc/<pid>/status) is taken by a signalfd
 *   or sigwait: the program routes it into its loop by design.
 * A timer signal that is only caught (SigCgt) is left out: bash, zsh and fish catch SIGALRM for
 * TMOUT and top catches every signal, so "caught" would flag every shell (docs/ready-oracle.md, Limits).
 */
import { readProc } from "./proc.ts";

/** Signals a timer sends: SIGALRM (setitimer ITIMER_REAL, alarm), SIGVTALRM, SIGPROF (signal(7)). */
const TIMER_SIGNALS = [14, 26, 27];
/** The real-time signals an application may use (glibc keeps 32 and 33): timer_create's usual choice. */
const FIRST_RT_SIGNAL = 34;
const LAST_RT_SIGNAL = 64;

/** A signal's bit in a /proc/<pid>/status mask (SigBlk: hex, bit n-1 for signal n). */
function inMask(mask: bigint, signal: number): boolean {
  return ((mask >> BigInt(signal - 1)) & 1n) === 1n;
}

/** Where a timer signal of `pid` could go unseen, in words ("a POSIX timer"), or undefined. */
export function signalTimerSource(pid: number): string | undefined {
  const timers = readProc(`/proc/${pid}/timers`);
  return signalTimerSourceIn(
    timers,
    timers !== undefined && /^ID:/m.test(timers) ? undefined : readProc(`/proc/${pid}/status`),
  );
}

/** signalTimerSource from the texts of /proc/<pid>/timers and /proc/<pid>/status (either may be absent). */
export function signalTimerSourceIn(timers: string | undefined, status: string | undefined): string | undefined {
  if (timers !== undefined && /^ID:/m.test(timers)) return "a POSIX timer";
  const blocked = status === undefined ? undefined : /^SigBlk:\s*([0-9a-f]+)$/m.exec(status)?.[1];
  if (blocked === undefined) return undefined;
  const mask = BigInt(`0x${blocked}`);
  const signals = [...TIMER_SIGNALS];
  for (let signal = FIRST_RT_SIGNAL; signal <= LAST_RT_SIGNAL; signal++) signals.push(signal);
  const routed = signals.find((signal) => inMask(mask, signal));
  return routed === undefined ? undefined : `signal ${routed} blocked for a signalfd or sigwait`;
}
