/**
 * Timers a wait's own timeout does not show: a worker thread the input started, parked on a
 * condition with the timer's deadline (Python's threading.Timer), and timerfds in the epoll set a
 * loop waits on with no timeout (sd-event style). Recorded /proc samples from Linux 6.18, x86_64.
 */
import { expect, test } from "bun:test";
import { judge, restOf, type ThreadActivity, withEpollTimers } from "../../src/session/ready/classify.ts";
import type { Look, ThreadLook } from "../../src/session/ready/reading.ts";
import { RestModel, UNSURE_TICK_MS } from "../../src/session/ready/rest-model.ts";
import { parseEpollTargets, parseTimerfd } from "../../src/session/ready/timerfds.ts";

const PID = 100;
const read = (): ThreadLook => ({
  pid: PID,
  tid: PID,
  command: "python3",
  activity: { kind: "wait", call: "read", nr: 0, waitKind: "input", timed: false },
});
/** A worker parked on a futex due in `timeoutMs`, asleep since `sleptAt`. */
const parked = (tid: number, timeoutMs: number | undefined, sleptAt: number): ThreadLook => ({
  pid: PID,
  tid,
  command: "python3",
  activity: {
    kind: "wait",
    call: "futex",
    nr: 202,
    waitKind: "other-thread",
    timed: true,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    absolute: true,
    sleptAt,
  },
});
const look = (...threads: ThreadLook[]): Look => ({
  at: 0,
  tpgid: PID,
  leader: "python3",
  pids: [PID],
  threads,
  io: new Map(),
  unread: 0,
});

test("a worker the input started, parked until its timer is due, is a timer until it has run once", () => {
  const rests = new RestModel();
  rests.remember(look(read()), false);
  rests.stopWatching();
  expect(rests.busyIn(look(read(), parked(101, 200, 5000)), PID)).toMatchObject({ state: "timer", timerDueMs: 200 });
  expect(rests.busyIn(look(read(), parked(101, 120, 5000)), PID)).toMatchObject({ state: "timer", timerDueMs: 120 });
  // It ran and parked again (a runtime's helper does so for ever): rest from then on.
  expect(rests.busyIn(look(read(), parked(101, 200, 5210)), PID)).toBeUndefined();
});

test("a worker at rest in another wait (a node worker's epoll) now parked until a deadline is a timer once", () => {
  const rests = new RestModel();
  const workerEpoll: ThreadLook = {
    pid: PID,
    tid: 101,
    command: "node",
    activity: { kind: "wait", call: "epoll_pwait", nr: 281, waitKind: "input", timed: true, timeoutMs: 8083 },
  };
  rests.remember(look(read(), workerEpoll), false);
  rests.stopWatching();
  expect(rests.busyIn(look(read(), parked(101, 198, 7000)), PID)).toMatchObject({ state: "timer", timerDueMs: 198 });
});

test("a parked worker known at rest, or due after UNSURE_TICK_MS, or with its deadline unknown, rests", () => {
  const rests = new RestModel();
  rests.remember(look(read(), parked(101, 50, 1000)), false);
  rests.stopWatching();
  expect(rests.busyIn(look(read(), parked(101, 50, 2000)), PID)).toBeUndefined(); // known at rest
  expect(rests.busyIn(look(read(), parked(102, UNSURE_TICK_MS + 1, 2000)), PID)).toBeUndefined();
  expect(rests.busyIn(look(read(), parked(103, undefined, 2000)), PID)).toBeUndefined();
});

// /proc/<pid>/fdinfo of an epoll instance (fd 3, on the anonymous inode 1030 = 0x406) watching stdin
// (a pipe) and two timerfds; and of a periodic timerfd and an armed one-shot one.
const EPOLL_FDINFO = `pos:\t0
flags:\t02
mnt_id:\t17
ino:\t1030
tfd:        0 events:       19 data:                0  pos:0 ino:e94d sdev:f
tfd:        4 events:       19 data:                4  pos:0 ino:406 sdev:10
tfd:        5 events:       19 data:                5  pos:0 ino:406 sdev:10
`;
const PERIODIC =
  "pos:\t0\nflags:\t02\nmnt_id:\t17\nino:\t1030\nclockid: 1\nticks: 0\nsettime flags: 00\nit_value: (0, 123000000)\nit_interval: (0, 200000000)\n";
const ONE_SHOT =
  "pos:\t0\nflags:\t02\nmnt_id:\t17\nino:\t1030\nclockid: 1\nticks: 0\nsettime flags: 01\nit_value: (4, 484620831)\nit_interval: (0, 0)\n";

test("fdinfo: an epoll set's anonymous-inode targets (the timerfd candidates), a timerfd's time left and period", () => {
  expect(parseEpollTargets(EPOLL_FDINFO)).toEqual([4, 5]);
  expect(parseEpollTargets(EPOLL_FDINFO.replace("ino:\t1030\n", ""))).toEqual([0, 4, 5]);
  expect(parseTimerfd(PERIODIC)).toEqual({ leftMs: 123, everyMs: 200 });
  expect(parseTimerfd(ONE_SHOT)).toEqual({ leftMs: 4484.620831, everyMs: 0 });
  expect(parseTimerfd("pos:\t0\n")).toBeUndefined();
});

const epollForever = (): ThreadActivity => ({
  kind: "wait",
  call: "epoll_wait",
  nr: 232,
  waitKind: "input",
  timed: false,
});

test("an epoll wait with no timeout over a periodic timerfd is the loop's tick, ending at its next expiry", () => {
  const activity = epollForever();
  withEpollTimers(activity, { tickMs: 200, tickAt: 9123 });
  expect(activity).toMatchObject({ timed: true, timeoutMs: 200, deadline: 9123, absolute: true });
});

test("a one-shot timerfd armed since the rest is a timer; the same one armed at rest (an idle timeout) is not", () => {
  const atRest = epollForever();
  const rest = restOf(atRest, undefined, false);
  const now = epollForever();
  withEpollTimers(now, { oneShot: { at: 5130, leftMs: 130 } });
  expect(judge(now, rest, true)).toMatchObject({ rest: false, state: "timer", timerDueMs: 130 });
  const idleTimeout = epollForever();
  withEpollTimers(idleTimeout, { oneShot: { at: 60_000, leftMs: 55_000 } });
  const restWithIt = restOf(idleTimeout, undefined, false);
  const later = epollForever();
  withEpollTimers(later, { oneShot: { at: 60_002, leftMs: 40_000 } });
  expect(judge(later, restWithIt, true)).toMatchObject({ rest: true });
  withEpollTimers(later, { oneShot: { at: 20_000, leftMs: 100 } }); // the input armed a nearer one
  expect(judge(later, restWithIt, true)).toMatchObject({ rest: false, state: "timer", timerDueMs: 100 });
});

test("a read of a pipe (a coprocess, a language server) waits for its writer, not the user: busy unless it was the rest", () => {
  const pipeRead: ThreadActivity = { kind: "wait", call: "read", nr: 0, waitKind: "pipe", timed: false };
  const ttyRead: ThreadActivity = { kind: "wait", call: "read", nr: 0, waitKind: "input", timed: false };
  expect(judge(pipeRead, restOf(ttyRead, undefined, false), true)).toMatchObject({ rest: false, state: "sleeping" });
  expect(judge(pipeRead, undefined, true)).toMatchObject({ rest: false });
  // a worker that rests on its self-pipe
  expect(judge(pipeRead, restOf(pipeRead, undefined, false), false)).toMatchObject({ rest: true });
  expect(judge(ttyRead, restOf(pipeRead, undefined, false), true)).toMatchObject({ rest: true, waitsForInput: true });
});

test("at most 64 new workers are followed in one settle: a 65th parked one rests", () => {
  const rests = new RestModel();
  rests.remember(look(read()), false);
  rests.stopWatching();
  for (let tid = 1000; tid < 1064; tid++)
    expect(rests.busyIn(look(read(), parked(tid, 200, 5000)), PID)).toMatchObject({ state: "timer" });
  expect(rests.busyIn(look(read(), parked(1064, 200, 5000)), PID)).toBeUndefined();
  rests.stopWatching(); // a new settle follows it again
  expect(rests.busyIn(look(read(), parked(1064, 200, 5000)), PID)).toMatchObject({ state: "timer" });
});
