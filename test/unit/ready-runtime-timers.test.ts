/** runtime-timers.ts: a BEAM scheduler waiting for its next Erlang timer within a second cannot be told at rest. */
import { expect, test } from "bun:test";
import type { ThreadActivity } from "../../src/session/ready/classify.ts";
import type { Look, ThreadLook } from "../../src/session/ready/reading.ts";
import { runtimeTimerDue } from "../../src/session/ready/runtime-timers.ts";

const futex = (timeoutMs?: number): ThreadActivity => ({
  kind: "wait",
  call: "futex",
  nr: 202,
  waitKind: "other-thread",
  timed: timeoutMs !== undefined,
  ...(timeoutMs !== undefined ? { timeoutMs } : {}),
});
const epoll: ThreadActivity = { kind: "wait", call: "epoll_wait", nr: 232, waitKind: "input", timed: false };
const thread = (name: string, activity: ThreadActivity, command = "beam.smp"): ThreadLook => ({
  pid: 100,
  tid: 100 + name.length,
  command,
  name,
  activity,
});
const look = (...threads: ThreadLook[]): Look => ({
  at: 0,
  tpgid: 100,
  leader: "beam.smp",
  pids: [100],
  threads,
  io: new Map(),
  unread: 0,
});

test("a scheduler in a timed futex due within a second: it cannot be told whose timer it is", () => {
  // fresh O's escript: 1_scheduler polls, 2_scheduler waits for the `receive ... after 150` clock
  const seen = look(thread("1_scheduler", epoll), thread("2_scheduler", futex(150)), thread("1_aux", futex()));
  expect(runtimeTimerDue(seen)).toBe(
    "its Erlang scheduler waits for a timer due in 150 ms, and no wait shows whether it is the program's or the runtime's",
  );
  // the nearest of two
  expect(runtimeTimerDue(look(thread("1_scheduler", futex(600)), thread("2_scheduler", futex(90))))).toContain(
    "due in 90 ms",
  );
});

test("a far timer, an untimed wait, another thread or another runtime: nothing to say", () => {
  // an idle BEAM a few seconds after start: its next timer 40 s out
  expect(runtimeTimerDue(look(thread("2_scheduler", futex(40_118)), thread("1_scheduler", epoll)))).toBeUndefined();
  expect(runtimeTimerDue(look(thread("2_scheduler", futex())))).toBeUndefined();
  // a dirty scheduler or the aux thread is the runtime's own; a JVM's helpers are not schedulers
  expect(runtimeTimerDue(look(thread("1_dirty_cpu_sch", futex(100)), thread("1_aux", futex(100))))).toBeUndefined();
  expect(runtimeTimerDue(look(thread("VM Periodic Tas", futex(50), "java")))).toBeUndefined();
});
