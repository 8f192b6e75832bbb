/**
 * Reads of a pipe whose writer is another process of the look. A pipe made by pipe(2) has no name:
 * it reaches another process only by fork (or by SCM_RIGHTS), so a read of one whose write end
 * another process of the look holds waits on that process, which is read and judged on its own: a
 * process pool's worker reading its call queue, fed by the parent. Such a read is a wait on another
 * process ("other-thread"), as a futex is on another thread. A write end held only by the reader's own
 * process may be fed by a signal handler (the self-pipe trick) under a timer no wait shows, and a
 * socket's peer cannot be told from /proc: those reads stay "pipe".
 */
import type { ThreadActivity } from "./classify.ts";
import { fdTarget, listProc, readProc } from "./proc.ts";

/** Descriptors looked through per process, at most (a process holds a few dozen). */
const MAX_FDS = 1024;
/** O_ACCMODE of an fd's flags (fdinfo's octal `flags:`): 0 read-only, 1 write-only, 2 both. */
const ACCESS_MODE = 3;

/** A thread's plain read of an anonymous pipe: its process, and the pipe as /proc names it (`pipe:[n]`). */
export interface PipeRead {
  pid: number;
  pipe: string;
  activity: Extract<ThreadActivity, { kind: "wait" }>;
}

/** Is `target` (an fd's /proc link) an anonymous pipe? A FIFO shows as its path. */
export const isAnonymousPipe = (target: string | undefined): target is string =>
  target !== undefined && target.startsWith("pipe:[");

/** Mark each read in `reads` whose pipe another process of `pids` can write as a wait on another process. */
export function markGroupPipes(reads: PipeRead[], pids: readonly number[]): void {
  const wanted = new Set(reads.map((read) => read.pipe));
  for (const pid of pids) {
    const writable = writeEnds(pid, wanted);
    if (writable.size === 0) continue;
    for (const read of reads) if (read.pid !== pid && writable.has(read.pipe)) read.activity.waitKind = "other-thread";
  }
}

/** The pipes of `wanted` that `pid` holds open for writing. */
function writeEnds(pid: number, wanted: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  const fds = listProc(`/proc/${pid}/fd`);
  for (let i = 0; i < fds.length && i < MAX_FDS; i++) {
    const fd = fds[i]!;
    const target = fdTarget(pid, Number(fd));
    if (target === undefined || !wanted.has(target) || found.has(target)) continue;
    const flags = readProc(`/proc/${pid}/fdinfo/${fd}`)?.match(/^flags:\s*([0-7]+)/m)?.[1];
    if (flags !== undefined && (Number.parseInt(flags, 8) & ACCESS_MODE) !== 0) found.add(target);
  }
  return found;
}
