/**
 * Work an io_uring holds: a thread blocked in io_uring_enter waits for completions, and its requests
 * (a read of the terminal, a timeout, a write linked to it, work on the ring's io-wq threads) are in
 * the kernel, not in any syscall. The ring's fdinfo (io_uring/fdinfo.c) counts the submissions the
 * kernel has taken (`SqHead`) and the completions it has posted (`CqTail`): their difference is the
 * requests in flight. At rest that is the terminal read and the program's standing requests (a
 * clock's timeout); an input that leaves more in flight has work pending. Kernels before 5.18 print
 * neither field: then nothing is known. Parsers are pure, for recorded samples.
 */
import type { ThreadActivity } from "./classify.ts";
import { readProc } from "./proc.ts";
import type { Look } from "./reading.ts";

/** io_uring_enter's flags (include/uapi/linux/io_uring.h). */
const IORING_ENTER_GETEVENTS = 1n;
const IORING_ENTER_EXT_ARG = 8n;

/**
 * Requests in flight on a ring, from its fdinfo: submissions taken less completions posted, as a
 * signed 32-bit difference (both counters wrap; a multishot request posts several completions).
 */
export function parseRingInFlight(text: string): { inFlight: number; polled: number } | undefined {
  const head = /^SqHead:\s+(\d+)$/m.exec(text)?.[1];
  const tail = /^CqTail:\s+(\d+)$/m.exec(text)?.[1];
  if (head === undefined || tail === undefined) return undefined;
  // PollList: requests waiting on a file's readiness, one "  op=N, task_works=N" line each.
  const polled = /^PollList:\n((?:\s+op=.*\n)*)/m.exec(text)?.[1]?.match(/op=/g)?.length ?? 0;
  return { inFlight: (Number(head) - Number(tail)) | 0, polled };
}

/**
 * A thread of `pid` blocked in io_uring_enter(fd, to_submit, min_complete, flags, arg, argsz):
 * when it waits for completions, what its ring has in flight (activity.ring). With
 * IORING_ENTER_EXT_ARG its timeout, if any, is inside the struct `arg` points to, which is not read:
 * the wait counts as timed, judged against its rest's.
 */
export function withRing(activity: ThreadActivity, pid: number, args: readonly bigint[]): void {
  if (activity.kind !== "wait") return;
  const flags = args[3] ?? 0n;
  if ((flags & IORING_ENTER_GETEVENTS) === 0n || (args[2] ?? 0n) === 0n) return;
  if ((flags & IORING_ENTER_EXT_ARG) !== 0n) activity.timed = true;
  const text = readProc(`/proc/${pid}/fdinfo/${Number(args[0] ?? -1n)}`);
  const ring = text === undefined ? undefined : parseRingInFlight(text);
  if (ring !== undefined) activity.ring = ring;
}

/**
 * A thread of `seen` rests on a ring that holds requests besides those waiting on a file's readiness
 * (the terminal's read): a standing timeout, a clock's tick. Work due at its expiry shows in no wait,
 * as behind a short tick; so the settle cannot tell.
 */
export function ringStanding(seen: Look): boolean {
  return seen.threads.some(
    ({ activity: a }) => a.kind === "wait" && a.ring !== undefined && a.ring.inFlight > a.ring.polled,
  );
}

/** A ring's io-wq worker or SQ-polling thread (kernel threads named for their process): its work is the ring's. */
export function ringWorker(threadName: string): boolean {
  return threadName.startsWith("iou-wrk-") || threadName.startsWith("iou-sqp-");
}
