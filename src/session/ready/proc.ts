/**
 * Reading and parsing the /proc files the ready oracle uses (Linux only). Parsers are pure and take
 * the file's text, so recorded samples test them; readers return undefined when the file is gone
 * (the process or thread ended while we looked) and throw only on a permission error, which the
 * oracle turns into its fallback.
 */
import { closeSync, openSync, readdirSync, readFileSync, readlinkSync, readSync } from "node:fs";
import { parseStat, type ProcStat } from "../../util/proc-stat.ts";

/** A stat file read and parsed (/proc/<pid>/stat, /proc/<pid>/task/<tid>/stat), or undefined when it is gone. */
export function readStat(path: string): ProcStat | undefined {
  const text = readProc(path);
  return text === undefined ? undefined : parseStat(text);
}

/** A thread's syscall: "running", blocked outside a syscall (nr -1), or a number with its six arguments. */
export type ProcSyscall = { running: true } | { running: false; nr: number; args: bigint[] };

/** /proc/<pid>/task/<tid>/syscall: `running`, `-1 sp pc`, or `nr a0 a1 a2 a3 a4 a5 sp pc` in hex. */
export function parseSyscall(text: string): ProcSyscall | undefined {
  const fields = text.trim().split(" ");
  if (fields[0] === "running") return { running: true };
  const nr = Number(fields[0]);
  if (!Number.isInteger(nr)) return undefined;
  if (nr < 0) return { running: false, nr, args: [] };
  const args = fields.slice(1, 7).map((f) => (/^0x[0-9a-f]+$/i.test(f) ? BigInt(f) : 0n));
  return args.length === 6 ? { running: false, nr, args } : undefined;
}

export interface ProcIo {
  /** Bytes the process read through read(2) and friends (the terminal's input among them). */
  rchar: number;
  /** Bytes it wrote through write(2) and friends (its screen output among them). */
  wchar: number;
}

export function parseIo(text: string): ProcIo | undefined {
  const rchar = /^rchar: (\d+)$/m.exec(text)?.[1];
  const wchar = /^wchar: (\d+)$/m.exec(text)?.[1];
  return rchar === undefined || wchar === undefined ? undefined : { rchar: Number(rchar), wchar: Number(wchar) };
}

/** Counts the /proc reads of a settle, for the bench (the oracle's cost made visible). */
/**
 * `se.exec_start` of /proc/<pid>/task/<tid>/sched, in ms of the scheduler's clock: for a blocked
 * thread, when it last ran, that is when it went to sleep in its wait. Undefined where the kernel
 * has no sched file (no CONFIG_SCHED_DEBUG).
 */
export function parseExecStart(text: string): number | undefined {
  const match = /^se\.exec_start\s*:\s*([\d.]+)$/m.exec(text);
  return match ? Number(match[1]) : undefined;
}

export const procCost = { reads: 0, ms: 0 };

function isGone(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ESRCH";
}

/** A /proc file's text; undefined when it vanished; throws EACCES/EPERM (the caller falls back). */
export function readProc(path: string): string | undefined {
  const start = performance.now();
  procCost.reads++;
  try {
    return readFileSync(path, "latin1");
  } catch (error) {
    if (isGone(error)) return undefined;
    throw error;
  } finally {
    procCost.ms += performance.now() - start;
  }
}

/** What fd `fd` of `pid` is (/proc/<pid>/fd/<fd>: a path, `pipe:[n]`, `anon_inode:[timerfd]`); undefined when closed or gone. */
export function fdTarget(pid: number, fd: number): string | undefined {
  return procLink(`/proc/${pid}/fd/${fd}`);
}

/** Where a /proc link points (an fd, a process's `exe`); undefined when it is gone or cannot be read. */
export function procLink(path: string): string | undefined {
  const start = performance.now();
  procCost.reads++;
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  } finally {
    procCost.ms += performance.now() - start;
  }
}

export function listProc(path: string): string[] {
  const start = performance.now();
  procCost.reads++;
  try {
    return readdirSync(path);
  } catch (error) {
    if (isGone(error)) return [];
    throw error;
  } finally {
    procCost.ms += performance.now() - start;
  }
}

/**
 * The timeout a blocked thread passed by pointer (a struct timeval or timespec), in ms, read from
 * /proc/<pid>/mem. This is the value the wait started with; the kernel writes back what remains only
 * when it returns. Undefined where the memory cannot be read.
 */
export function readTimeoutMs(pid: number, address: bigint, type: "timeval" | "timespec"): number | undefined {
  if (address === 0n || address > BigInt(Number.MAX_SAFE_INTEGER)) return undefined;
  const start = performance.now();
  procCost.reads++;
  let fd: number | undefined;
  try {
    fd = openSync(`/proc/${pid}/mem`, "r");
    const buffer = Buffer.alloc(16);
    if (readSync(fd, buffer, 0, 16, Number(address)) !== 16) return undefined;
    const seconds = Number(buffer.readBigInt64LE(0));
    const fraction = Number(buffer.readBigInt64LE(8));
    return Math.round(seconds * 1000 + (type === "timeval" ? fraction / 1000 : fraction / 1e6));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
    procCost.ms += performance.now() - start;
  }
}
