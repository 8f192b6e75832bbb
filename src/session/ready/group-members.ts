/**
 * The members of a terminal's foreground process group, found in the session's own process tree and
 * among the orphans it left: which processes a look (reading.ts) reads. Bounded: at most
 * MAX_PROCESSES members and MAX_TREE processes walked.
 */
import { descendants, walkTree } from "../../pty/process-tree.ts";
import type { ProcStat } from "../../util/proc-stat.ts";
import { listProc, readProc, readStat } from "./proc.ts";
import { jobControlShell } from "./signal-timers.ts";

/**
 * The environment variable that marks a session's processes with its id (registry.ts). Every
 * descendant copies it, so a daemon that left the session (a double fork, re-parented to init) is
 * still known as the session's.
 */
export const SESSION_VARIABLE = "TUI_TESTER_SESSION";

/** Processes read per look (reading.ts) and members found per scan. */
export const MAX_PROCESSES = 64;
/** Processes of the session's tree walked to find the group's members (a fork bomb stops here). */
const MAX_TREE = 1024;

/** The terminal facts of the session's first process: its session id and the foreground group. */
export function terminalOf(pid: number): { session: number; tpgid: number; stat: ProcStat } | undefined {
  const stat = statOf(pid);
  return stat === undefined ? undefined : { session: stat.session, tpgid: stat.tpgid, stat };
}

/** A scan of the session's tree: the group's members, and processes that left it. */
export interface GroupScan {
  members: number[];
  /**
   * Descendants of members that run in another process group or session (setsid, setpgid), with
   * those below them; not a job-control shell's children (its background jobs). Their parents may
   * be waiting for them some way no wait shows (SIGCHLD). Daemons that left the session's tree too
   * (re-parented, in a session of their own) and carry its mark, with those below them.
   */
  leftGroup: number[];
  /**
   * Those of leftGroup in the foreground group of a terminal of their own: the program behind a relay
   * that gave it a pty (expect's spawn, socat's `pty`, script, a nested tmux's pane). Input to the
   * relay is its input.
   */
  nestedForeground: number[];
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
export function scanGroup(pgrp: number, session: number, root: number, mark?: string): GroupScan {
  // Each member's command name: the tree lists parents first, so a child's parent is here already.
  const members = new Map<number, string>();
  const leftGroup: number[] = [];
  const { orphans, escaped } = orphansOf(session, root, mark);
  const nestedForeground: number[] = [];
  const leaving = (pid: number, stat: ProcStat | undefined) => {
    leftGroup.push(pid);
    // A terminal is the controlling terminal of one session only: one of another session is another terminal.
    if (stat !== undefined && stat.session !== session && stat.ttyNr !== 0 && stat.pgrp === stat.tpgid)
      nestedForeground.push(pid);
  };
  const trees = [root, ...orphans].flatMap((top) => sessionTree(top));
  for (const pid of trees) {
    if (members.size >= MAX_PROCESSES) break;
    const stat = statOf(pid);
    if (stat === undefined) continue;
    if (stat.pgrp === pgrp && stat.session === session) members.set(stat.pid, stat.comm);
    else if (leftGroup.length < MAX_PROCESSES && (leftGroup.includes(stat.ppid) || spawnedWork(members, stat.ppid)))
      leaving(stat.pid, stat);
  }
  for (const pid of escaped.flatMap((top) => sessionTree(top)))
    if (leftGroup.length < MAX_PROCESSES && !leftGroup.includes(pid)) leaving(pid, statOf(pid));
  return { members: [...members.keys()].sort((a, b) => a - b), leftGroup, nestedForeground };
}

/** /proc/<pid>/stat parsed, or undefined when it is gone. */
function statOf(pid: number): ProcStat | undefined {
  return readStat(`/proc/${pid}/stat`);
}

/** A member's child outside the group is its work, unless the member is a job-control shell (a background job). */
function spawnedWork(members: Map<number, string>, parent: number): boolean {
  const command = members.get(parent);
  return command !== undefined && !jobControlShell(parent, command);
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
 * started after `root` can be the session's: older pids (allocatedSince) are not read. Those in
 * a session of their own that carry `mark` (SESSION_VARIABLE=id) are `escaped`: daemons. Bounded by
 * MAX_TREE.
 */
function orphansOf(session: number, root: number, mark: string | undefined): { orphans: number[]; escaped: number[] } {
  const orphans: number[] = [];
  const escaped: number[] = [];
  const since = allocatedSince(root);
  let read = 0;
  for (const ancestor of serverAncestors()) {
    for (const pid of childrenOfThread(ancestor, ancestor)) {
      if (!since(pid) || read >= MAX_TREE) continue;
      read++;
      const stat = statOf(pid);
      if (stat === undefined) continue;
      if (stat.session === session) orphans.push(pid);
      else if (mark !== undefined && carriesMark(stat, mark)) escaped.push(pid);
    }
  }
  return { orphans, escaped };
}

/**
 * Which pids may have been given out since `root`'s: those above it, and once the counter has wrapped
 * (pid_max is 32768 on many machines) those up to the last one given out (/proc/loadavg's last field).
 */
function allocatedSince(root: number): (pid: number) => boolean {
  const last = Number(readProc("/proc/loadavg")?.trim().split("/").at(-1)?.split(" ").at(-1));
  const wrapped = Number.isInteger(last) && last < root;
  return (pid) => pid > root || (wrapped && pid <= last);
}

/** Whether each process checked carries a mark, by pid and start time: a process's environment is read once. */
const marked = new Map<string, boolean>();

/**
 * The process's environment holds the entry `mark` (its environment at exec, /proc/<pid>/environ;
 * one it cannot read, as another user's, holds none). Remembered per process, at most 1024.
 */
function carriesMark(stat: ProcStat, mark: string): boolean {
  const key = `${stat.pid}@${stat.startTime}`;
  let found = marked.get(key);
  if (found === undefined) {
    let environ: string | undefined;
    try {
      environ = readProc(`/proc/${stat.pid}/environ`);
    } catch {
      environ = undefined; // another user's process: not ours
    }
    if (environ === undefined) return false; // gone: nothing to remember
    found = environ.split("\0").includes(mark);
    if (marked.size >= 1024) marked.clear();
    marked.set(key, found);
  }
  return found;
}

/** The server's ancestors, from its parent up to init, read once (at most 32). */
let ancestors: number[] | undefined;
function serverAncestors(): number[] {
  if (ancestors !== undefined) return ancestors;
  const found: number[] = [];
  for (let pid = process.ppid; pid > 1 && found.length < 32; ) {
    found.push(pid);
    const next = statOf(pid)?.ppid;
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

/** The live children of `pid`, from its threads' children files (empty where the kernel has none). */
export function childrenOf(pid: number): number[] {
  return listProc(`/proc/${pid}/task`).flatMap((tid) => childrenOfThread(pid, Number(tid)));
}

/** The live children of thread `tid` of `pid` (the processes it forked, or was handed as reaper). */
function childrenOfThread(pid: number, tid: number): number[] {
  const listed = readProc(`/proc/${pid}/task/${tid}/children`)?.trim() ?? "";
  return listed === "" ? [] : listed.split(" ").map(Number);
}
