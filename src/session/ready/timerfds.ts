/**
 * Timers an epoll wait hides: timerfds in the epoll set a thread waits on (sd-event style loops arm a
 * timerfd and wait with no timeout). The set is in /proc/<pid>/fdinfo/<epfd> ("tfd: N" lines), each
 * timerfd's time left and period in its own fdinfo ("it_value: (s, ns)", "it_interval: (s, ns)",
 * fs/timerfd.c timerfd_show). Parsers are pure, for recorded samples.
 */
import { CLOCK_MONOTONIC, clockNowMs } from "./clock.ts";
import { fdTarget, readProc } from "./proc.ts";

/** Target fds of one epoll set read per look; a set with more is judged on these. */
const MAX_TARGETS = 32;

export interface EpollTimers {
  /** The shortest period of a periodic timerfd in the set: the loop's tick. */
  tickMs?: number;
  /** That tick's next expiry, in ms of CLOCK_MONOTONIC. */
  tickAt?: number;
  /** The nearest armed one-shot timerfd: its expiry in ms of CLOCK_MONOTONIC (clock.ts), and its time left. */
  oneShot?: { at: number; leftMs: number };
}

/**
 * The fds an epoll instance watches that may be timerfds, from its fdinfo: those on the anonymous
 * inode the epoll instance itself is on (eventfd, timerfd, signalfd share it; "ino:" is decimal in
 * the header, hex on each "tfd:" line). Every fd where the header has no inode.
 */
export function parseEpollTargets(text: string): number[] {
  const own = /^ino:\s+(\d+)/m.exec(text)?.[1];
  const anon = own === undefined ? undefined : Number(own).toString(16);
  return [...text.matchAll(/^tfd:\s+(\d+).*?\bino:([0-9a-f]+)/gm)]
    .filter((m) => anon === undefined || m[2] === anon)
    .map((m) => Number(m[1]));
}

/** A timerfd's time left and period in ms (0: disarmed / one-shot), from its fdinfo. */
export function parseTimerfd(text: string): { leftMs: number; everyMs: number } | undefined {
  const ms = (name: string) => {
    const m = new RegExp(`^${name}: \\((\\d+), (\\d+)\\)`, "m").exec(text);
    return m === null ? undefined : Number(m[1]) * 1000 + Number(m[2]) / 1e6;
  };
  const leftMs = ms("it_value");
  const everyMs = ms("it_interval");
  return leftMs === undefined || everyMs === undefined ? undefined : { leftMs, everyMs };
}

/** The timers armed in epoll set `epfd` of process `pid`; undefined when it holds none (or is gone). */
export function epollTimers(pid: number, epfd: number): EpollTimers | undefined {
  const set = readProc(`/proc/${pid}/fdinfo/${epfd}`);
  if (set === undefined) return undefined;
  const found: EpollTimers = {};
  for (const fd of parseEpollTargets(set).slice(0, MAX_TARGETS)) {
    if (fdTarget(pid, fd) !== "anon_inode:[timerfd]") continue;
    const info = readProc(`/proc/${pid}/fdinfo/${fd}`);
    const timer = info === undefined ? undefined : parseTimerfd(info);
    if (timer === undefined) continue;
    if (timer.everyMs > 0 && timer.everyMs < (found.tickMs ?? Infinity)) {
      found.tickMs = timer.everyMs;
      const now = clockNowMs(CLOCK_MONOTONIC);
      found.tickAt = now === undefined ? undefined : now + timer.leftMs;
    } else if (timer.leftMs > 0 && timer.leftMs < (found.oneShot?.leftMs ?? Infinity)) {
      const now = clockNowMs(CLOCK_MONOTONIC);
      if (now !== undefined) found.oneShot = { at: now + timer.leftMs, leftMs: timer.leftMs };
    }
  }
  return found.tickMs === undefined && found.oneShot === undefined ? undefined : found;
}
