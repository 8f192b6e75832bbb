/** Work an io_uring holds (session/ready/rings.ts): requests in flight from the ring's fdinfo, judged against the rest's. */
import { expect, test } from "bun:test";
import { classify, judge, restOf } from "../../src/session/ready/classify.ts";
import { parseSyscall } from "../../src/session/ready/proc.ts";
import { parseStat } from "../../src/util/proc-stat.ts";
import type { Look } from "../../src/session/ready/reading.ts";
import { parseRingInFlight, ringStanding, ringWorker } from "../../src/session/ready/rings.ts";

/** Recorded on x86_64 (Linux 6.18): a console whose loop is one ring, at rest and with a linked timeout queued. */
const fdinfo = (sqHead: number, cqTail: number, polls: string[]) =>
  [
    "pos:\t0",
    "flags:\t02",
    "SqMask:\t0x3f",
    `SqHead:\t${sqHead}`,
    `SqTail:\t${sqHead}`,
    `CachedSqHead:\t${sqHead}`,
    "CqMask:\t0x7f",
    "CqHead:\t0",
    `CqTail:\t${cqTail}`,
    `CachedCqTail:\t${cqTail}`,
    "SQEs:\t0",
    "CQEs:\t0",
    "SqThread:\t-1",
    "UserFiles:\t0",
    "UserBufs:\t0",
    "PollList:",
    ...polls.map((op) => `  op=${op}, task_works=0`),
    "CqOverflowList:",
    "NAPI:\tdisabled",
    "",
  ].join("\n");
const AT_REST = fdinfo(1, 0, ["22"]); // the terminal's IORING_OP_READ, poll-armed
const QUEUED = fdinfo(4, 1, ["22"]); // a key read; its answer's TIMEOUT and linked WRITE queued, the read armed again
const ANSWERED = fdinfo(4, 3, ["22"]);
/** io_uring_enter(3, 0, 1, IORING_ENTER_GETEVENTS, NULL, 0) */
const ENTER = "426 0x3 0x0 0x1 0x1 0x0 0x0 0x7ffd93c7a548 0x7fa291c26829";

test("fdinfo: submissions taken less completions posted, and the polled ones", () => {
  expect(parseRingInFlight(AT_REST)).toEqual({ inFlight: 1, polled: 1 });
  expect(parseRingInFlight(QUEUED)).toEqual({ inFlight: 3, polled: 1 });
  expect(parseRingInFlight(ANSWERED)).toEqual({ inFlight: 1, polled: 1 });
  expect(parseRingInFlight(fdinfo(2, 4294967295, []))).toEqual({ inFlight: 3, polled: 0 }); // CqTail wrapped
  expect(parseRingInFlight("pos:\t0\nSqThread:\t-1\nPollList:\n")).toBeUndefined(); // before Linux 5.18
});

test("a ring's wait rests with what it had in flight at rest; more in flight is work the input queued", () => {
  const stat = parseStat("42 (app) S 1 42 42 34816 42 4194560 0 0")!;
  const entered = (text: string) => ({
    ...classify("x86_64", stat, parseSyscall(ENTER), () => undefined),
    ring: parseRingInFlight(text)!,
  });
  expect(entered(AT_REST)).toMatchObject({ kind: "wait", call: "io_uring_enter", waitKind: "input", timed: false });
  const rest = restOf(entered(AT_REST), undefined, true);
  expect(rest).toMatchObject({ nr: 426, ringInFlight: 1 });
  expect(judge(entered(QUEUED), rest, true)).toEqual({ rest: false, state: "sleeping", call: "io_uring_enter" });
  expect(judge(entered(ANSWERED), rest, true).rest).toBe(true);
  // A clock's timeout re-armed as it completes: a look between the two must not lower the rest.
  const clockRest = restOf(entered(fdinfo(9, 7, ["22"])), undefined, false);
  expect(restOf(entered(AT_REST), clockRest, false)).toMatchObject({ ringInFlight: 2 });
});

test("with no ring rest known, only polled requests rest; without counters, only the rest's call", () => {
  const stat = parseStat("42 (app) S 1 42 42 34816 42 4194560 0 0")!;
  const enter = classify("x86_64", stat, parseSyscall(ENTER), () => undefined);
  if (enter.kind !== "wait") throw new Error("io_uring_enter is a wait");
  const epollRest = { nr: 232, timed: false }; // a worker that rested in epoll_wait, now waiting on the ring
  expect(judge({ ...enter, ring: parseRingInFlight(AT_REST)! }, epollRest, false).rest).toBe(true);
  const diskRead = { ...enter, ring: parseRingInFlight(fdinfo(3, 1, ["22"]))! }; // a read of a file queued
  expect(judge(diskRead, epollRest, false)).toEqual({ rest: false, state: "sleeping", call: "io_uring_enter" });
  expect(judge(diskRead, undefined, true).rest).toBe(false);
  // A kernel before 5.18: no counters.
  expect(judge(enter, { nr: 426, timed: false }, true).rest).toBe(true);
  expect(judge(enter, epollRest, true).rest).toBe(false);
});

test("a ring holding a request besides the polled ones (a standing timeout) cannot tell; io-wq threads are the ring's", () => {
  const seen = (text: string): Look => ({
    at: 0,
    tpgid: 42,
    leader: "app",
    pids: [42],
    threads: [
      {
        pid: 42,
        tid: 42,
        command: "app",
        activity: {
          kind: "wait",
          call: "io_uring_enter",
          nr: 426,
          waitKind: "input",
          timed: false,
          ring: parseRingInFlight(text)!,
        },
      },
    ],
    io: new Map(),
    unread: 0,
  });
  expect(ringStanding(seen(AT_REST))).toBe(false);
  expect(ringStanding(seen(fdinfo(9, 7, ["22"])))).toBe(true); // the read and a clock's TIMEOUT
  expect(ringWorker("iou-wrk-18059")).toBe(true);
  expect(ringWorker("iou-sqp-18059")).toBe(true);
  expect(ringWorker("app")).toBe(false);
});
