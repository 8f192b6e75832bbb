/**
 * Reads of a pipe or a unix socket whose other end another process of the look holds. Such a read
 * waits on that process, which is read and judged on its own: it is a wait on another process
 * ("other-thread"), as a futex is on another thread.
 * - An anonymous pipe reaches other processes only by fork (or SCM_RIGHTS), so where another process
 *   of the look holds its write end (`/proc/<pid>/fd`, the `fdinfo` flags), its writers are the
 *   group's: a process pool's worker reading its call queue, fed by its parent.
 * - A connected unix socket has one peer (socket-peers.ts); where another process of the look holds
 *   it, that process is the one to write: a `multiprocessing.Manager` server's thread reading its
 *   client's requests, or a worker at the end of a socketpair.
 * An end held only by the reader's own process is written by its own threads, judged on their own,
 * or by a signal handler (the self-pipe trick). Signals reach a resting program from a timer, from
 * its children (judged with the group) or from outside: where the process has a signal timer no wait
 * shows (signal-timers.ts), the read stays "pipe", as does any other read that is not of the terminal
 * (a FIFO, a TCP socket, a peer outside the look). Guile's futures thread reads such a pipe, started
 * by the first future: never seen at rest, every such settle reached the cap.
 */
import type { ThreadActivity } from "./classify.ts";
import { fdTarget, listProc, readProc } from "./proc.ts";
import { signalTimerSource } from "./signal-timers.ts";
import { unixPeer } from "./socket-peers.ts";

/** Descriptors looked through per process, and per look, at most (a process holds a few dozen). */
const MAX_FDS = 1024;
const MAX_FDS_PER_LOOK = 4096;
/** O_ACCMODE of an fd's flags (fdinfo's octal `flags:`): 0 read-only, 1 write-only, 2 both. */
const ACCESS_MODE = 3;

/** A thread's plain read of a pipe or socket: its process, and what it reads as /proc names it (`pipe:[n]`). */
export interface EndRead {
  pid: number;
  target: string;
  activity: Extract<ThreadActivity, { kind: "wait" }>;
}

/** Is `target` (an fd's /proc link) an anonymous pipe or a socket? A FIFO shows as its path. */
export const isPipeOrSocket = (target: string | undefined): target is string =>
  target !== undefined && (target.startsWith("pipe:[") || target.startsWith("socket:["));

/** Mark each read in `reads` whose other end another process of `pids` holds as a wait on another process. */
export function markGroupEnds(reads: EndRead[], pids: readonly number[]): void {
  // What a holder of the other end shows in its /proc/<pid>/fd, per read.
  const otherEnd = new Map<EndRead, string>();
  for (const read of reads) {
    if (read.target.startsWith("pipe:")) otherEnd.set(read, read.target);
    else {
      const peer = unixPeer(Number(read.target.slice("socket:[".length, -1)));
      if (typeof peer === "number") otherEnd.set(read, `socket:[${peer}]`);
    }
  }
  if (otherEnd.size === 0) return;
  const wanted = new Set(otherEnd.values());
  // Past the budget a read stays a pipe wait: busy, never wrongly at rest.
  const budget = { fds: MAX_FDS_PER_LOOK };
  for (const pid of pids) {
    const held = endsHeld(pid, wanted, budget);
    if (held.size === 0) continue;
    // Its signal timers are read once per look, and only when one of its own reads needs them.
    let hiddenTimer: boolean | undefined;
    const writtenByHolder = (read: EndRead) =>
      read.pid !== pid || !(hiddenTimer ??= signalTimerSource(pid) !== undefined);
    for (const [read, end] of otherEnd)
      if (held.has(end) && writtenByHolder(read)) read.activity.waitKind = "other-thread";
  }
}

/**
 * The ends of `wanted` that `pid` holds (a socket, or a pipe open for writing), among the first of its
 * fds (in /proc's order: ascending) that the budget allows.
 */
function endsHeld(pid: number, wanted: ReadonlySet<string>, budget: { fds: number }): Set<string> {
  const found = new Set<string>();
  const fds = listProc(`/proc/${pid}/fd`);
  for (let i = 0; i < fds.length && i < MAX_FDS && budget.fds > 0; i++, budget.fds--) {
    const fd = fds[i]!;
    const target = fdTarget(pid, Number(fd));
    if (target === undefined || !wanted.has(target) || found.has(target)) continue;
    if (target.startsWith("socket:") || writable(pid, fd)) found.add(target);
  }
  return found;
}

function writable(pid: number, fd: string): boolean {
  const flags = readProc(`/proc/${pid}/fdinfo/${fd}`)?.match(/^flags:\s*([0-7]+)/m)?.[1];
  return flags !== undefined && (Number.parseInt(flags, 8) & ACCESS_MODE) !== 0;
}
