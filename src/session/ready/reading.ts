/**
 * One look at a terminal's foreground process group: every thread of every process in it, what it
 * is doing, and the group's I/O counters. Bounded: at most MAX_PROCESSES processes and MAX_THREADS
 * threads are read per look (the rest are counted in `unread`, never judged).
 */
import { type ThreadActivity, classify } from "./classify.ts";
import { listProc, parseIo, parseStat, parseSyscall, readProc, readTimeoutMs, type ProcStat } from "./proc.ts";
import type { Arch } from "./syscalls.ts";

const MAX_PROCESSES = 64;
const MAX_THREADS = 512;

export interface ThreadLook {
  pid: number;
  tid: number;
  /** The process's command name (its main thread's), not the thread's own name. */
  command: string;
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
 * Every process in process group `pgrp` of session `session`: one pass over /proc. Only pids from
 * `from` up are read (a session's processes are younger than its first one; the oracle also skips
 * pids it already read for the same group), so the pass costs the processes started since, not every
 * process on the machine. After pid numbers wrap around a newer process can have a lower pid: the
 * caller passes `from` 0 when it suspects that. `highest` is the highest pid in the listing.
 */
export function scanGroup(pgrp: number, session: number, from: number): { pids: number[]; highest: number } {
  const pids: number[] = [];
  let highest = 0;
  for (const entry of listProc("/proc")) {
    const first = entry.charCodeAt(0);
    if (first < 48 || first > 57) continue;
    const pid = Number(entry);
    if (pid > highest) highest = pid;
    if (pid < from || pids.length >= MAX_PROCESSES) continue;
    const text = readProc(`/proc/${entry}/stat`);
    const stat = text === undefined ? undefined : parseStat(text);
    if (stat !== undefined && stat.pgrp === pgrp && stat.session === session) pids.push(stat.pid);
  }
  return { pids: pids.sort((a, b) => a - b), highest };
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
  for (const pid of pids) {
    const tids = listProc(`/proc/${pid}/task`);
    if (tids.length === 0) continue;
    const mainText = readProc(`/proc/${pid}/stat`);
    const main = mainText === undefined ? undefined : parseStat(mainText);
    // Gone, or left the group since it was found (setsid, setpgid): not judged.
    if (main === undefined || main.pgrp !== tpgid) continue;
    result.pids.push(pid);
    const command = main.comm;
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
      const activity = classify(arch, stat, syscall, (address, type) => readTimeoutMs(pid, address, type));
      result.threads.push({ pid, tid: Number(tid), command, activity });
    }
  }
  return result;
}
