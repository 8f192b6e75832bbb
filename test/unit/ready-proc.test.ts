/** The ready oracle's /proc parsing and thread judgement, on recorded samples for x86_64 and aarch64. */
import { describe, expect, test } from "bun:test";
import { classify, judge, restOf, type RestWait } from "../../src/session/ready/classify.ts";
import { parseIo, parseSyscall } from "../../src/session/ready/proc.ts";
import { parseStat } from "../../src/util/proc-stat.ts";
import { syscallInfo, type Arch } from "../../src/session/ready/syscalls.ts";

// Recorded on x86_64 (Linux 6.18): bash at its prompt, a bun main thread, a worker's futex, a sleep.
const X86 = {
  bashStat: "6355 (bash) S 6351 6355 6355 34816 6355 4194560 128 0 1 0 0 0 0 0 20 0 1 0 364262 2990080 400",
  bashPselect: "270 0xfb 0x7ffd593470f0 0x0 0x0 0x0 0x7ffd59347010 0x7ffd59346fd0 0x7fbb2f136aec",
  sleepNanosleep: "230 0x0 0x0 0x7fffbc3eaad0 0x7fffbc3eab10 0x0 0x0 0x7fffbc3eaab8 0x7f8806e56503",
  nodeEpoll: "232 0x12 0x7ffc1b1e0a10 0x400 0xffffffff 0x0 0x0 0x7ffc1b1e09c8 0x7f3a2d1f2e2e",
  nodeEpollTimer: "232 0x12 0x7ffc1b1e0a10 0x400 0xbb8 0x0 0x0 0x7ffc1b1e09c8 0x7f3a2d1f2e2e",
  futexNoTimeout: "202 0x55d0c4a0 0x80 0x0 0x0 0x0 0xffffffff 0x7f3a2c9fed40 0x7f3a2d1a1117",
};
// aarch64 (asm-generic numbers): ppoll with no timeout, epoll_pwait(-1), clock_nanosleep, wait4.
const ARM = {
  ppoll: "73 0xffffd2b0c1a8 0x1 0x0 0x0 0x8 0x0 0xffffd2b0c160 0xffff8a2b3c4c",
  epollForever: "22 0x5 0xffffd2b0c000 0x400 0xffffffff 0x0 0x8 0xffffd2b0bfd0 0xffff8a2b3c4c",
  epollTimer: "22 0x5 0xffffd2b0c000 0x400 0x190 0x0 0x8 0xffffd2b0bfd0 0xffff8a2b3c4c",
  clockNanosleep: "115 0x1 0x1 0xffffd2b0c100 0xffffd2b0c110 0x0 0x0 0xffffd2b0c0e0 0xffff8a2b3c4c",
  wait4: "260 0xffffffff 0xffffd2b0c0fc 0x2 0x0 0x0 0x0 0xffffd2b0c0b0 0xffff8a2b3c4c",
};

const sleeping = (comm = "app") => parseStat(`42 (${comm}) S 1 42 42 34816 42 4194560 0 0`)!;
const timeoutOf = (ms: number) => () => ms;
const look = (arch: Arch, line: string, readMs = 400) =>
  classify(arch, sleeping(), parseSyscall(line), timeoutOf(readMs));

describe("/proc parsing", () => {
  test("stat: state, groups, the terminal and its foreground group, the start time; a name with spaces and parentheses", () => {
    expect(parseStat(X86.bashStat)).toEqual({
      pid: 6355,
      comm: "bash",
      state: "S",
      ppid: 6351,
      pgrp: 6355,
      session: 6355,
      ttyNr: 34816, // /dev/pts/0: major 136, minor 0
      tpgid: 6355,
      startTime: 364262,
    });
    const short = parseStat("7 (a (b) c) R 1 7 7 0 -1 0");
    expect(short).toMatchObject({ comm: "a (b) c", state: "R", tpgid: -1 });
    expect(short?.startTime).toBeUndefined(); // a line cut before field 22
    expect(parseStat("garbage")).toBeUndefined();
  });

  test("syscall: running, blocked outside a syscall, and a number with six arguments", () => {
    expect(parseSyscall("running\n")).toEqual({ running: true });
    expect(parseSyscall("-1 0x7ffd 0x7f00")).toEqual({ running: false, nr: -1, args: [] });
    expect(parseSyscall(X86.bashPselect)).toMatchObject({
      running: false,
      nr: 270,
      args: [0xfbn, 0x7ffd593470f0n, 0n, 0n, 0n, 0x7ffd59347010n],
    });
    expect(parseSyscall("270 0x1")).toBeUndefined();
  });

  test("io: rchar and wchar", () => {
    expect(parseIo("rchar: 12\nwchar: 34\nsyscr: 1\n")).toEqual({ rchar: 12, wchar: 34 });
    expect(parseIo("")).toBeUndefined();
  });

  test("syscall tables differ per architecture", () => {
    expect(syscallInfo("x86_64", 270)?.name).toBe("pselect6");
    expect(syscallInfo("aarch64", 72)?.name).toBe("pselect6");
    expect(syscallInfo("x86_64", 232)?.name).toBe("epoll_wait");
    expect(syscallInfo("aarch64", 232)).toBeUndefined();
    expect(syscallInfo("aarch64", 22)?.name).toBe("epoll_pwait");
    expect(syscallInfo("x86_64", 22)).toBeUndefined(); // pipe on x86_64, not a wait
  });
});

describe("x86_64 threads", () => {
  test("bash at its prompt waits for input with no timeout: at rest", () => {
    const activity = look("x86_64", X86.bashPselect);
    expect(activity).toMatchObject({ kind: "wait", call: "pselect6", waitKind: "input", timed: false });
    expect(judge(activity, undefined, true)).toEqual({ rest: true, waitsForInput: true, timed: false });
  });

  test("node's epoll_wait: -1 rests, 3000 ms is a timer the input set", () => {
    const rest = restOf(look("x86_64", X86.nodeEpoll), undefined, false);
    expect(judge(look("x86_64", X86.nodeEpoll), rest, true).rest).toBe(true);
    const timer = look("x86_64", X86.nodeEpollTimer);
    expect(timer).toMatchObject({ call: "epoll_wait", timed: true, timeoutMs: 3000 });
    expect(judge(timer, rest, true)).toEqual({ rest: false, state: "timer", timerDueMs: 3000, call: "epoll_wait" });
  });

  test("a sleep is a timer unless the thread slept at rest; its length is read by pointer", () => {
    const sleep = look("x86_64", X86.sleepNanosleep, 300);
    expect(sleep).toMatchObject({ call: "clock_nanosleep", waitKind: "sleep", timed: true, timeoutMs: 300 });
    expect(judge(sleep, undefined, true)).toMatchObject({ rest: false, state: "timer", timerDueMs: 300 });
    const rest: RestWait = { nr: 230, timed: true, timeoutMs: 300 };
    expect(judge(sleep, rest, true).rest).toBe(true);
  });

  test("futex with no timeout waits on another thread: at rest", () => {
    expect(judge(look("x86_64", X86.futexNoTimeout), undefined, true)).toMatchObject({
      rest: true,
      waitsForInput: false,
    });
  });

  test("running, disk sleep and a tracing stop are busy; stopped and zombie rest", () => {
    const running = classify("x86_64", parseStat("42 (py) R 1 42 42 0 42 0")!, { running: true }, timeoutOf(0));
    expect(judge(running, undefined, true)).toEqual({ rest: false, state: "running" });
    const disk = classify(
      "x86_64",
      parseStat("42 (py) D 1 42 42 0 42 0")!,
      parseSyscall(X86.bashPselect),
      timeoutOf(0),
    );
    expect(judge(disk, undefined, true)).toMatchObject({ rest: false, state: "sleeping" });
    const stopped = classify("x86_64", parseStat("42 (vim) T 1 42 42 0 42 0")!, undefined, timeoutOf(0));
    expect(judge(stopped, undefined, true).rest).toBe(true);
    // A tracing stop waits for its tracer to resume it (a ptrace loop stepping `ls`): busy.
    const traced = classify("x86_64", parseStat("43 (ls) t 42 42 42 0 42 0")!, undefined, timeoutOf(0));
    expect(judge(traced, undefined, true)).toEqual({ rest: false, state: "running" });
  });
});

describe("aarch64 threads", () => {
  test("ppoll with no timeout rests; epoll_pwait -1 rests, 400 ms does not", () => {
    expect(look("aarch64", ARM.ppoll)).toMatchObject({ call: "ppoll", timed: false });
    expect(judge(look("aarch64", ARM.ppoll), undefined, true).rest).toBe(true);
    const rest = restOf(look("aarch64", ARM.epollForever), undefined, false);
    expect(judge(look("aarch64", ARM.epollTimer), rest, true)).toMatchObject({
      rest: false,
      state: "timer",
      timerDueMs: 400,
    });
  });

  test("clock_nanosleep with TIMER_ABSTIME: what is left of it on its clock (arg 0), unknown without one; wait4 rests", () => {
    const line = parseSyscall(ARM.clockNanosleep); // CLOCK_MONOTONIC (1), TIMER_ABSTIME
    const clocks: number[] = [];
    const onClock = (clock: number) => (clocks.push(clock), clock === 1 ? 5000 : undefined);
    expect(classify("aarch64", sleeping(), line, timeoutOf(5400), onClock)).toMatchObject({
      call: "clock_nanosleep",
      timed: true,
      timeoutMs: 400,
    });
    expect(clocks).toEqual([1]);
    expect(classify("aarch64", sleeping(), line, timeoutOf(4000), onClock)).toMatchObject({ timeoutMs: 0 }); // due
    expect(look("aarch64", ARM.clockNanosleep)).toMatchObject({ timed: true, timeoutMs: undefined });
    expect(judge(look("aarch64", ARM.wait4), undefined, true).rest).toBe(true);
  });

  test("futex: FUTEX_WAIT's timeout is relative; FUTEX_WAIT_BITSET's absolute on CLOCK_MONOTONIC, or CLOCK_REALTIME with its flag", () => {
    const futex = (op: number) =>
      parseSyscall(`202 0x55d0c4a0 ${`0x${op.toString(16)}`} 0x0 0x7f3a2c9fed40 0x0 0x0 0x0 0x0`);
    const onClock = (clock: number) => (clock === 1 ? 1000 : clock === 0 ? 2000 : undefined);
    const at = (op: number) => classify("x86_64", sleeping(), futex(op), timeoutOf(2500), onClock);
    expect(at(0x80)).toMatchObject({ call: "futex", timed: true, timeoutMs: 2500 }); // FUTEX_WAIT | PRIVATE
    expect(at(0x89)).toMatchObject({ timed: true, timeoutMs: 1500 }); // FUTEX_WAIT_BITSET | PRIVATE
    expect(at(0x189)).toMatchObject({ timed: true, timeoutMs: 500 }); // ... | FUTEX_CLOCK_REALTIME
    expect(at(0x86)).toMatchObject({ timed: true, timeoutMs: 500 }); // FUTEX_LOCK_PI: realtime
  });
});

describe("rests on a timer", () => {
  const tick = (ms: number) => ({
    kind: "wait" as const,
    call: "epoll_pwait2",
    nr: 441,
    waitKind: "input" as const,
    timed: true,
    timeoutMs: ms,
  });

  test("a confirmed rest accepts half to twice its timeout; a 60 ms timer under a 1 s tick is busy", () => {
    const rest: RestWait = { nr: 441, timed: true, timeoutMs: 1000 };
    expect(judge(tick(900), rest, true).rest).toBe(true);
    expect(judge(tick(60), rest, true).rest).toBe(false);
    expect(judge(tick(5000), rest, true).rest).toBe(false);
  });

  test("a start-up (provisional) rest: longer waits rest, clearly shorter ones are busy", () => {
    const rest: RestWait = { nr: 441, timed: true, timeoutMs: 100, provisional: true };
    expect(judge(tick(1000), rest, true).rest).toBe(true);
    expect(judge(tick(60), rest, true).rest).toBe(false);
  });

  test("the remembered rest keeps the longest timeout of the same wait", () => {
    const known: RestWait = { nr: 441, timed: true, timeoutMs: 80 };
    expect(restOf(tick(30), known, false)).toMatchObject({ timeoutMs: 80 });
    expect(restOf(tick(1000), { nr: 7, timed: true, timeoutMs: 80 }, false)).toMatchObject({
      nr: 441,
      timeoutMs: 1000,
    });
  });

  test("a worker thread's timed futex rests; the main thread's is a timer", () => {
    const futex = {
      kind: "wait" as const,
      call: "futex",
      nr: 202,
      waitKind: "other-thread" as const,
      timed: true,
      timeoutMs: 400,
    };
    expect(judge(futex, undefined, false).rest).toBe(true);
    expect(judge(futex, undefined, true)).toMatchObject({ rest: false, state: "timer" });
  });
});
