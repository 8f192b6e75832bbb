/**
 * One look at a terminal's foreground process group: every thread of every process in it, what it
 * is doing, and the group's I/O counters. Bounded: at most MAX_PROCESSES processes and MAX_THREADS
 * threads are read per look (the rest are counted in `unread`, never judged).
 */
import { type ThreadActivity, classify, withEpollTimers } from "./classify.ts";
import { epollTimers } from "./timerfds.ts";
import {
  fdTarget,
  listProc,
  parseExecStart,
  parseIo,
  parseStat,
  parseSyscall,
  readProc,
  readTimeoutMs,
  type ProcStat,
} from "./proc.ts";
import type { Arch } from "./syscalls.ts";
import { clockNowMs } from "./clock.ts";
import { jobControlShell } from "./signal-timers.ts";
import { descendants, walkTree } from "../../pty/process-tree.ts";

const MAX_PROCESSES = 64;
const MAX_THREADS = 512;
/** Processes of the session's tree walked to find the group's members (a fork bomb stops here). */
const MAX_TREE = 1024;

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

/** The terminal facts of the session's first process: its session id and the foreground group. */
export function terminalOf(pid: number): { session: number; tpgid: number; stat: ProcStat } | undefined {
  const text = readProc(`/proc/${pid}/stat`);
  const stat = text === undefined ? undefined : parseStat(text);
  return stat === undefined ? undefined : { session: stat.session, tpgid: stat.tpgid, stat };
}

/**
 * Every process in process group `pgrp` of session `session`, found in the session's own process
 * tree (`root` and its descendants, through /proc/<pid>/task/<tid>/children): a few small reads per
 * process of the session, where a pass over all of /proc read every process on the machine (10-22 ms
 * per call on a loaded machine, serial on the server's thread, and once per settle of each of 32
 * sessions, the 32-session regression in bench/README.md). A member whose parent exited is no longer
 * below `root`: such orphans (a grandchild left running in the background) are found among the
 * children of the server's ancestors, where the kernel re-parents them (see orphansOf).
 */
export function scanGroup(pgrp: number, session: number, root: number): number[] {
  const pids: number[] = [];
  const trees = [root, ...orphansOf(session, root)].flatMap((top) => sessionTree(top));
  for (const pid of trees) {
    if (pids.length >= MAX_PROCESSES) break;
    const text = readProc(`/proc/${pid}/stat`);
    const stat = text === undefined ? undefined : parseStat(text);
    if (stat !== undefined && stat.pgrp === pgrp && stat.session === session) pids.push(stat.pid);
  }
  return pids.sort((a, b) => a - b);
}

/**
 * `root` and its live descendants, parents first, from the children files (reads counted in
 * procCost); where the kernel has no children files, process-tree.ts's walk over parent links.
 */
function sessionTree(root: number): number[] {
  if (!childrenFilesWork(root)) return [root, ...descendants(root, MAX_TREE - 1)];
  return [root, ...walkTree(root, childrenOf, MAX_TREE - 1)];
}

/**
 * Processes of session `session` whose parent exited. The kernel re-parents an orphan to the nearest
 * ancestor marked as a child subreaper, else to init: one of the server's ancestors (the session's
 * first process is the server's child). It becomes a child of that process's main thread (kernel/exit.c
 * find_new_reaper: another thread only when the main one has exited), so only the main thread's
 * children list is read: a scan runs at every look at rest, and init's other threads can have
 * children lists of their own to read (18 threads here: 33 reads a scan, against 6). Only those
 * started after `root` (a pid above root's) can be the session's: older ones are not read. Bounded by
 * MAX_TREE.
 */
function orphansOf(session: number, root: number): number[] {
  const orphans: number[] = [];
  let read = 0;
  for (const ancestor of serverAncestors()) {
    for (const pid of childrenOfThread(ancestor, ancestor)) {
      if (pid <= root || read >= MAX_TREE) continue;
      read++;
      const text = readProc(`/proc/${pid}/stat`);
      const stat = text === undefined ? undefined : parseStat(text);
      if (stat !== undefined && stat.session === session) orphans.push(pid);
    }
  }
  return orphans;
}

/** The server's ancestors, from its parent up to init, read once (at most 32). */
let ancestors: number[] | undefined;
function serverAncestors(): number[] {
  if (ancestors !== undefined) return ancestors;
  const found: number[] = [];
  for (let pid = process.ppid; pid > 1 && found.length < 32; ) {
    found.push(pid);
    const text = readProc(`/proc/${pid}/stat`);
    const next = text === undefined ? undefined : parseStat(text)?.ppid;
    if (next === undefined || next === pid) break;
    pid = next;
  }
  ancestors = [...found, 1];
  return ancestors;
}

let childrenFiles: boolean | undefined;
function childrenFilesWork(root: number): boolean {
  if (childrenFiles === undefined) {
    const own = readProc(`/proc/${process.pid}/task/${process.pid}/children`);
    childrenFiles = own !== undefined || readProc(`/proc/${root}/task/${root}/children`) !== undefined;
  }
  return childrenFiles;
}

/** Read the threads and counters of `pids`, members of group `tpgid`. */
export function look(arch: Arch, tpgid: number, pids: number[]): Look {
  const result: Look = {
    at: performance.now(),
    tpgid,
    leader: undefined,
    pids: [],
    threads: [],
    io: new Map(),
    unread: 0,
  };
  const queue = [...pids];
  const queued = new Set(pids);
  // Children a process waits for (wait4, waitid, sigsuspend): judged in whatever group they are in,
  // since their parent waits on their work (a helper started in a process group of its own).
  const awaited = new Set<number>();
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
    const mainText = readProc(`/proc/${pid}/stat`);
    const main = mainText === undefined ? undefined : parseStat(mainText);
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
      const statText = readProc(`${base}/stat`);
      const stat = statText === undefined ? undefined : parseStat(statText);
      if (stat === undefined) continue;
      // Only a blocked thread has a syscall worth reading; "running" needs no second read.
      const blocked = stat.state === "S" || stat.state === "D";
      const syscallText = blocked ? readProc(`${base}/syscall`) : undefined;
      const syscall = syscallText === undefined ? undefined : parseSyscall(syscallText);
      if (blocked && syscall === undefined) continue; // the thread ended between the two reads
      const activity = classify(arch, stat, syscall, (address, type) => readTimeoutMs(pid, address, type), clockNowMs);
      if (activity.kind === "wait" && PLAIN_READS.has(activity.call) && syscall?.running === false) {
        if (!isTerminal(pid, Number(syscall.args[0] ?? -1n))) activity.waitKind = "pipe";
      }
      if (activity.kind === "wait" && SIGNAL_WAITS.has(activity.call) && !activity.timed && Number(tid) === pid) {
        // Waiting for SIGCHLD (a wrapper such as timeout(1)): its children are read and judged.
        const children = childrenOf(pid);
        if (children.length === 0) activity.waitKind = "signal";
        else queueChildren(children);
      }
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

/** Is fd `fd` of `pid` a terminal? Where it cannot be told (gone, closed since), it is taken as one. */
function isTerminal(pid: number, fd: number): boolean {
  const target = fdTarget(pid, fd);
  return (
    target === undefined || target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target === "/dev/console"
  );
}

/** Waits that a signal ends: pause, sigsuspend, and sigwait's rt_sigtimedwait. */
const SIGNAL_WAITS = new Set(["pause", "rt_sigsuspend", "rt_sigtimedwait"]);

/** Waits that end only when a child changes state. */
const REAPING = new Set(["wait4", "waitid"]);

/** The live children of `pid`, from its threads' children files (empty where the kernel has none). */
function childrenOf(pid: number): number[] {
  return listProc(`/proc/${pid}/task`).flatMap((tid) => childrenOfThread(pid, Number(tid)));
}

/** The live children of thread `tid` of `pid` (the processes it forked, or was handed as reaper). */
function childrenOfThread(pid: number, tid: number): number[] {
  const listed = readProc(`/proc/${pid}/task/${tid}/children`)?.trim() ?? "";
  return listed === "" ? [] : listed.split(" ").map(Number);
}
