/**
 * The processes below a session's child, found by walking parent links: /proc on Linux,
 * `ps -A -o pid=,ppid=` elsewhere (macOS). A signal to the process group misses children that
 * called setsid() or setpgid(); walking the tree finds them while they are still descendants.
 * What escapes: a double-forked daemon has been re-parented to init (or a subreaper) before we
 * look, so nothing links it to the session any more.
 */
import { readdirSync, readFileSync } from "node:fs";
import { parseStat } from "../util/proc-stat.ts";

function parentLinks(): Map<number, number[]> {
  const children = new Map<number, number[]>();
  const link = (pid: number, ppid: number) => {
    if (!Number.isInteger(pid) || !Number.isInteger(ppid)) return;
    const list = children.get(ppid);
    if (list === undefined) children.set(ppid, [pid]);
    else list.push(pid);
  };
  if (process.platform === "linux") {
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const ppid = parseStat(readFileSync(`/proc/${entry}/stat`, "latin1"))?.ppid;
        if (ppid !== undefined) link(Number(entry), ppid);
      } catch {
        // the process ended while we looked
      }
    }
  } else if (process.platform !== "win32") {
    const ps = Bun.spawnSync(["ps", "-A", "-o", "pid=,ppid="], { stdout: "pipe", stderr: "ignore" });
    for (const line of ps.stdout.toString().split("\n")) {
      const [pid, ppid] = line.trim().split(/\s+/).map(Number);
      if (pid !== undefined && ppid !== undefined) link(pid, ppid);
    }
  }
  return children;
}

/**
 * The children of one process from /proc/<pid>/task/<tid>/children (Linux 3.5+, CONFIG_PROC_CHILDREN):
 * a few small reads per process in the tree, where the full scan reads every process's stat. That
 * scan ran on each send_text to see whether the program reads its input, and with 100 processes on
 * a loaded machine took 10-20 ms, serial on the server's thread: 32 sessions echoing at once waited
 * ~400 ms for each other (bench/README.md, the 32-session regression).
 */
function childrenFromProc(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found; // gone
  }
  for (const tid of tasks) {
    try {
      const listed = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      for (const child of listed === "" ? [] : listed.split(" ")) found.push(Number(child));
    } catch {
      // the thread ended while we looked
    }
  }
  return found;
}

let childrenFilesWork: boolean | undefined;
function haveChildrenFiles(): boolean {
  if (childrenFilesWork === undefined) {
    try {
      readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8");
      childrenFilesWork = true;
    } catch {
      childrenFilesWork = false;
    }
  }
  return childrenFilesWork;
}

/** Descendants one walk returns at most: a fork bomb's tree ends the walk here, not the server's time. */
export const MAX_DESCENDANTS = 4096;

/**
 * The processes below `root` (not `root` itself), breadth first so parents come before children,
 * at most `max`. `childrenOf` lists one process's children; a pid seen twice (reused while walking)
 * is not walked again.
 */
export function walkTree(root: number, childrenOf: (pid: number) => number[], max: number): number[] {
  const found: number[] = [];
  const seen = new Set<number>([root]);
  for (let i = -1; i < found.length; i++) {
    for (const child of childrenOf(i < 0 ? root : found[i]!)) {
      if (found.length >= max) return found;
      if (seen.has(child)) continue;
      seen.add(child);
      found.push(child);
    }
  }
  return found;
}

/** Every live descendant of `pid` (not `pid` itself), parents before children, at most `max`. */
export function descendants(pid: number, max = MAX_DESCENDANTS): number[] {
  const links = process.platform === "linux" && haveChildrenFiles() ? undefined : parentLinks();
  const childrenOf = (parent: number) => (links === undefined ? childrenFromProc(parent) : (links.get(parent) ?? []));
  return walkTree(pid, childrenOf, max);
}

/**
 * Bytes the processes have read through read(2) and friends (`rchar` in /proc/<pid>/io), summed;
 * null where that is not known (not Linux, or not permitted). Used to tell a program that reads its
 * input from one that never does.
 */
export function bytesRead(pids: number[]): number | null {
  if (process.platform !== "linux") return null;
  let total = 0;
  for (const pid of pids) {
    try {
      const match = /^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"));
      total += match === null ? 0 : Number(match[1]);
    } catch {
      // gone, or not ours to read
    }
  }
  return total;
}
