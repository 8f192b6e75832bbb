/**
 * One look at a terminal's foreground process group: every thread of every process in it, what it
 * is doing, and the group's I/O counters. Bounded: at most MAX_PROCESSES processes and MAX_THREADS
 * threads are read per look (the rest are counted in `unread`, never judged).
 */
import { type ThreadActivity, classify, withEpollTimers } from "./classify.ts";
import { ringWorker, withRing } from "./rings.ts";
import { epollTimers } from "./timerfds.ts";
import { isPipeOrSocket, markGroupEnds, type EndRead } from "./group-ends.ts";
import {
  fdTarget,
  listProc,
  parseExecStart,
  parseIo,
  parseSyscall,
  readProc,
  readStat,
  readTimeoutMs,
} from "./proc.ts";
import type { Arch } from "./syscalls.ts";
import { clockNowMs } from "./clock.ts";
import { jobControlShell } from "./signal-timers.ts";
import { childrenOf, MAX_PROCESSES } from "./group-members.ts";
import { terminalReadTimeoutMs } from "./tty-modes.ts";
import { tcpInFlight, tcpTableOf, type TcpTable } from "./tcp-in-flight.ts";
import { unixPeer } from "./socket-peers.ts";

const MAX_THREADS = 512;

export interface ThreadLook {
  pid: number;
  tid: number;
  /** The process's command name (its main thread's), not the thread's own name. */
  command: string;
  /** The thread's own name: a runtime names its helpers (bun's "mi-scavenger"); a program's threads keep the command's. */
  name?: string;
  activity: ThreadActivity;
}

export interface Look {
  at: number;
  /** The foreground process group of the session's terminal. */
  tpgid: number;
  /** Its leader's command name, when the leader is alive. */
  leader: string | undefined;
  /** The processes of the group that were read. */
  pids: number[];
  threads: ThreadLook[];
  /** rchar and wchar per process, from /proc/<pid>/io. */
  io: Map<number, { rchar: number; wchar: number }>;
  /** Threads beyond the bounds, not read. */
  unread: number;
}

/**
 * Read the threads and counters of `pids`, members of group `tpgid`, and of `outside`: processes
 * judged with the group wherever they are (work its members started in a group of their own).
 */
export function look(arch: Arch, tpgid: number, pids: number[], outside: number[] = []): Look {
  const result: Look = {
    at: performance.now(),
    tpgid,
    leader: undefined,
    pids: [],
    threads: [],
    io: new Map(),
    unread: 0,
  };
  const queue = [...pids, ...outside.filter((pid) => !pids.includes(pid))];
  const queued = new Set(queue);
  // Judged in whatever group they are in, since their parent waits on their work: `outside`, and
  // children a process waits for (wait4, waitid, sigsuspend; a helper in a process group of its own).
  const awaited = new Set<number>(outside);
  const endReads: EndRead[] = [];
  const ttyTimeouts = new Map<string, number | undefined>();
  // Read only for a look with a thread reading a socket, once per process (tcp-in-flight.ts).
  const tcpTables = new Map<number, TcpTable>();
  const queueChildren = (children: number[]) => {
    for (const child of children) {
      if (queued.has(child) || queue.length >= MAX_PROCESSES) continue;
      queued.add(child);
      awaited.add(child);
      queue.push(child);
    }
  };
  for (let i = 0; i < queue.length && i < MAX_PROCESSES; i++) {
    const pid = queue[i]!;
    const tids = listProc(`/proc/${pid}/task`);
    if (tids.length === 0) continue;
    const main = readStat(`/proc/${pid}/stat`);
    // Gone, or left the group since it was found (setsid, setpgid) and not awaited: not judged.
    if (main === undefined || (main.pgrp !== tpgid && !awaited.has(pid))) continue;
    result.pids.push(pid);
    const command = main.comm;
    let reaping = false;
    if (pid === tpgid) result.leader = command;
    const io = readProc(`/proc/${pid}/io`);
    const counters = io === undefined ? undefined : parseIo(io);
    if (counters !== undefined) result.io.set(pid, counters);
    for (const tid of tids) {
      if (result.threads.length >= MAX_THREADS) {
        result.unread++;
        continue;
      }
      const base = `/proc/${pid}/task/${tid}`;
      const stat = readStat(`${base}/stat`);
      if (stat === undefined || ringWorker(stat.comm)) continue;
      // Only a blocked thread has a syscall worth reading; "running" needs no second read.
      const blocked = stat.state === "S" || stat.state === "D";
      const syscallText = blocked ? readProc(`${base}/syscall`) : undefined;
      const syscall = syscallText === undefined ? undefined : parseSyscall(syscallText);
      if (blocked && syscall === undefined) continue; // the thread ended between the two reads
      const activity = classify(arch, stat, syscall, (address, type) => readTimeoutMs(pid, address, type), clockNowMs);
      const target =
        activity.kind === "wait" && syscall?.running === false && READS.has(activity.call)
          ? fdTarget(pid, Number(syscall.args[0] ?? -1n))
          : undefined;
      // A unix socket (sock_diag knows its peer, remembered per socket) is in no TCP table: not read for it.
      const socket =
        activity.kind === "wait" && target?.startsWith("socket:[")
          ? Number(target.slice("socket:[".length, -1))
          : undefined;
      if (activity.kind === "wait" && socket !== undefined && unixPeer(socket) === undefined) {
        if (!tcpTables.has(pid)) tcpTables.set(pid, tcpTableOf(pid));
        if (tcpInFlight(tcpTables.get(pid)!, socket)) activity.inFlight = true;
      }
      if (activity.kind === "wait" && PLAIN_READS.has(activity.call) && syscall?.running === false) {
        if (!isTerminal(target)) activity.waitKind = "pipe";
        else if (target?.startsWith("/dev/pts/")) readTimeoutOfTerminal(activity, target, ttyTimeouts);
        if (isPipeOrSocket(target)) endReads.push({ pid, target, activity });
      }
      if (activity.kind === "wait" && SIGNAL_WAITS.has(activity.call) && !activity.timed && Number(tid) === pid) {
        // Waiting for SIGCHLD (a wrapper such as timeout(1)): its children are read and judged.
        const children = childrenOf(pid);
        if (children.length === 0) activity.waitKind = "signal";
        else queueChildren(children);
      }
      if (activity.kind === "wait" && activity.call === "io_uring_enter" && syscall?.running === false)
        withRing(activity, pid, syscall.args);
      if (activity.kind === "wait" && activity.call.startsWith("epoll_") && syscall?.running === false) {
        const timers = epollTimers(pid, Number(syscall.args[0] ?? -1n));
        if (timers !== undefined) withEpollTimers(activity, timers);
      }
      if (activity.kind === "wait" && activity.timed) {
        // When the wait ends: its phase against the rest's (rest-model.ts, the grid of a periodic loop).
        const phased = activity.timeoutMs !== undefined && activity.waitKind !== "other-thread" && !activity.absolute;
        // A worker parked with a deadline: whether it has run since (rest-model.ts, a new worker's timer).
        const parked = activity.call === "futex" && Number(tid) !== pid;
        const sched = phased || parked ? readProc(`${base}/sched`) : undefined;
        const sleptAt = sched === undefined ? undefined : parseExecStart(sched);
        if (sleptAt !== undefined && phased) activity.deadline = sleptAt + activity.timeoutMs!;
        if (sleptAt !== undefined && parked) activity.sleptAt = sleptAt;
      }
      result.threads.push({ pid, tid: Number(tid), command, name: stat.comm, activity });
      if (activity.kind === "wait" && REAPING.has(activity.call)) reaping = true;
    }
    markShellHelpers(result.threads, pid, command);
    // Blocked in wait4 means it has a child (else ECHILD): one forked after the group was listed is
    // read too, or a shell waiting on a pipeline it just started would look at rest with it unseen;
    // so is one in a group of its own, whose work the parent waits for.
    if (reaping) queueChildren(childrenOf(pid));
  }
  if (endReads.length > 0) markGroupEnds(endReads, result.pids);
  result.pids.sort((a, b) => a - b);
  return result;
}

/**
 * A job-control shell at its prompt (its main thread waiting for input) runs its user's work in child
 * processes: its helper threads' timed waits are housekeeping (fish's I/O threads and fd monitor, which
 * exit after 500 and 256 ms idle). While its main thread waits on them (fish's `wait` for background
 * jobs, told of by its fd monitor), they are not.
 */
function markShellHelpers(threads: ThreadLook[], pid: number, command: string): void {
  const main = threads.find((t) => t.tid === pid)?.activity;
  if (main?.kind !== "wait" || main.waitKind !== "input") return;
  const helpers = threads.filter(
    (t) => t.pid === pid && t.tid !== pid && t.activity.kind === "wait" && t.activity.timed,
  );
  if (helpers.length === 0 || !jobControlShell(pid, command)) return;
  for (const helper of helpers) if (helper.activity.kind === "wait") helper.activity.shellHelper = true;
}

/** The processes of a look and the bytes each has written: equal for two looks when none wrote between them. */
export function writesOf(seen: Look): string {
  return [...seen.io].map(([pid, io]) => `${pid}:${io.wchar}`).join();
}

/** Reads that block on one fd: which ends when that fd has data (poll, select, epoll watch several). */
const PLAIN_READS = new Set(["read", "readv"]);
/** Reads of an fd whose target is looked at: plain reads, and a socket's receives. */
const READS = new Set([...PLAIN_READS, "recvfrom", "recvmsg"]);

/**
 * A read of terminal `path` times out when the terminal's modes say so (tty-modes.ts): a timed wait
 * then, which a loop on it makes its tick. Each terminal's modes are read once per look.
 */
function readTimeoutOfTerminal(
  activity: Extract<ThreadActivity, { kind: "wait" }>,
  path: string,
  timeouts: Map<string, number | undefined>,
): void {
  if (!timeouts.has(path)) timeouts.set(path, terminalReadTimeoutMs(path));
  const timeoutMs = timeouts.get(path);
  if (timeoutMs === undefined) return;
  activity.timed = true;
  activity.timeoutMs = timeoutMs;
}

/** Is an fd with this /proc link a terminal? Where it cannot be told (gone, closed since), it is taken as one. */
function isTerminal(target: string | undefined): boolean {
  return (
    target === undefined || target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target === "/dev/console"
  );
}

/** Waits that a signal ends: pause, sigsuspend, and sigwait's rt_sigtimedwait. */
const SIGNAL_WAITS = new Set(["pause", "rt_sigsuspend", "rt_sigtimedwait"]);

/** Waits that end only when a child changes state. */
const REAPING = new Set(["wait4", "waitid"]);
