/**
 * The ready oracle's rest model on a periodic loop (session/ready/rest-model.ts): waits judged by the
 * phase of the loop's wake-ups, rests that move between threads, the short tick that makes a settle
 * unsure, and the start-up rest taken at once when it is certain (startup.ts certainRest).
 */
import { expect, test } from "bun:test";
import type { ThreadActivity } from "../../src/session/ready/classify.ts";
import type { Look, ThreadLook } from "../../src/session/ready/reading.ts";
import { NEAR_WAKE_MS, RestModel, UNSURE_TICK_MS } from "../../src/session/ready/rest-model.ts";
import { certainRest } from "../../src/session/ready/startup.ts";

const PID = 100;
const EPOLL = 232;

/** A thread in epoll_wait(timeoutMs) that went to sleep at `sleptAt` (ms of the scheduler's clock). */
function epoll(timeoutMs: number | undefined, sleptAt?: number, tid = PID): ThreadLook {
  const activity: ThreadActivity =
    timeoutMs === undefined
      ? { kind: "wait", call: "epoll_wait", nr: EPOLL, waitKind: "input", timed: false }
      : {
          kind: "wait",
          call: "epoll_wait",
          nr: EPOLL,
          waitKind: "input",
          timed: true,
          timeoutMs,
          ...(sleptAt !== undefined ? { deadline: sleptAt + timeoutMs } : {}),
        };
  return { pid: PID, tid, command: "python3", activity };
}

function look(...threads: ThreadLook[]): Look {
  return { at: 0, tpgid: PID, leader: "python3", pids: [PID], threads, io: new Map(), unread: 0 };
}

/** A model that knows the loop's 100 ms tick, its current wait ending at 1100. */
function ticking(): RestModel {
  const rests = new RestModel();
  rests.remember(look(epoll(100, 1000)), false);
  return rests;
}

test("the rest of the current period, ending on the tick's grid, is rest", () => {
  const rests = ticking();
  // An input at 1040 woke it; it waits the 60 ms left of the period.
  expect(rests.busyIn(look(epoll(60, 1040)), PID)).toBeUndefined();
  // A later period's wake-up, a little late (the timeout was computed before it slept).
  expect(rests.busyIn(look(epoll(57, 1146)), PID)).toBeUndefined();
});

test("a shorter wait ending off the grid is a timer the input set, though within half to twice the rest", () => {
  const rests = ticking();
  expect(rests.busyIn(look(epoll(50, 1010)), PID)).toMatchObject({ state: "timer", timerDueMs: 50 });
});

test("a wait ending a little after the pending grid point set no timer before the tick: rest", () => {
  const rests = ticking(); // the tick is pending at 1100
  // bun after 200 ms of work: it computed the rest of its period, then slept 9 ms later
  expect(rests.busyIn(look(epoll(69, 1040)), PID)).toBeUndefined();
  // later than a tenth of the period: not the tick (busy, to be safe)
  expect(rests.busyIn(look(epoll(80, 1040)), PID)).toMatchObject({ state: "timer" });
});

test("just after a tick's wake-up, a short timer is one: the next grid point is the pending one", () => {
  const rests = ticking();
  // woke at its tick (1100), then an input set a 5 ms timer: it ends 5 ms after the past grid point
  expect(rests.busyIn(look(epoll(5, 1100.5)), PID)).toMatchObject({ state: "timer", timerDueMs: 5 });
});

test("a full period from a wake-up is rest, and moves the grid", () => {
  const rests = ticking();
  const fresh = look(epoll(100, 1130)); // woke at its tick late, under load: a new phase
  expect(rests.busyIn(fresh, PID)).toBeUndefined();
  rests.notePhase(fresh);
  expect(rests.busyIn(look(epoll(40, 1190)), PID)).toBeUndefined(); // on the new grid (1230)
  expect(rests.busyIn(look(epoll(40, 1160)), PID)).toMatchObject({ state: "timer" }); // off it
});

test("without the phase (no sched file), half to twice the rest stays the rule", () => {
  const rests = new RestModel();
  rests.remember(look(epoll(100)), false);
  expect(rests.busyIn(look(epoll(60)), PID)).toBeUndefined();
  expect(rests.busyIn(look(epoll(20)), PID)).toMatchObject({ state: "timer" });
});

test("a wait that was a sibling thread's rest is rest (a runtime moved the role between threads)", () => {
  const rests = new RestModel();
  rests.remember(look(epoll(undefined, undefined, PID), epoll(100, 1000, 101)), false);
  // The 100 ms poller now runs on the main thread, and the untimed read on the other.
  expect(rests.busyIn(look(epoll(100, 1100, PID), epoll(undefined, undefined, 101)), PID)).toBeUndefined();
});

test("a rest on a timed wait for input under 1 s is a short tick: the settle cannot tell", () => {
  const rests = ticking();
  expect(rests.shortTick(look(epoll(60, 1040)))).toEqual({ tickMs: 100, wake: `${PID}@${1100 / 5}` });
  const long = new RestModel();
  long.remember(look(epoll(UNSURE_TICK_MS, 0)), false);
  expect(long.shortTick(look(epoll(UNSURE_TICK_MS, 0)))).toBeUndefined();
  const untimed = new RestModel();
  untimed.remember(look(epoll(undefined)), false);
  expect(untimed.shortTick(look(epoll(undefined)))).toBeUndefined();
});

test("a polling loop's sleep, a thread's periodic sleep or timed queue.get beside a blocking read: short ticks too; a runtime's long park is not", () => {
  const sleeping = (tid: number, timeoutMs: number, call = "clock_nanosleep", name = "app"): ThreadLook => ({
    pid: PID,
    tid,
    command: "app",
    name,
    activity: {
      kind: "wait",
      call,
      nr: call === "futex" ? 202 : 230,
      waitKind: call === "futex" ? "other-thread" : "sleep",
      timed: true,
      timeoutMs,
    },
  });
  const poller = new RestModel();
  poller.remember(look(sleeping(PID, 40)), false); // reads stdin with O_NONBLOCK between sleeps
  expect(poller.shortTick(look(sleeping(PID, 40)))).toMatchObject({ tickMs: 40 });
  const ticker = new RestModel();
  ticker.remember(look(epoll(undefined), sleeping(101, 50)), false); // a thread counting ticks
  expect(ticker.shortTick(look(epoll(undefined), sleeping(101, 50)))).toMatchObject({ tickMs: 50 });
  const uiThread = new RestModel(); // queue.get(timeout=0.1) on a worker thread
  uiThread.remember(look(epoll(undefined), sleeping(101, 100, "futex")), false);
  expect(uiThread.shortTick(look(epoll(undefined), sleeping(101, 80, "futex")))).toMatchObject({ tickMs: 100 });
  const runtime = new RestModel(); // bun parks its helpers for 8 to 30 s, and its mi-scavenger for a few ms
  runtime.remember(
    look(epoll(undefined), sleeping(101, 8000, "futex"), sleeping(102, 44, "futex", "mi-scavenger")),
    false,
  );
  expect(
    runtime.shortTick(look(epoll(undefined), sleeping(101, 8000, "futex"), sleeping(102, 44, "futex", "mi-scavenger"))),
  ).toBeUndefined();
});

test("a start-up rest is certain with no timer, or a timer of half a second or more", () => {
  expect(certainRest(look(epoll(undefined)), PID)).toBe(true);
  expect(certainRest(look(epoll(4000, 0)), PID)).toBe(true);
  expect(certainRest(look(epoll(100, 0)), PID)).toBe(false); // bun's start-up waits: wait for quiet
  expect(certainRest(look(epoll(undefined)), PID + 1)).toBe(false); // another group holds the terminal
  expect(certainRest(look({ pid: PID, tid: PID, command: "x", activity: { kind: "running" } }), PID)).toBe(false);
});

test("asleep again just before a grid point, a loop woke for it: a timer it set then is one (bun's setTimeout(150) at its tick)", () => {
  const rests = new RestModel();
  rests.remember(look(epoll(1000, 0)), false); // bun's 1 s tick, read as ending at 1000
  // it woke a hair before the deadline as read, with 54 ms of a 150 ms timer to go
  expect(rests.busyIn(look(epoll(54, 999.95)), PID)).toMatchObject({ state: "timer", timerDueMs: 54 });
  expect(rests.busyIn(look(epoll(54, 1000.05)), PID)).toMatchObject({ state: "timer", timerDueMs: 54 });
  // a wait that ends on the grid point, begun just before it (an input then), is not taken for rest either:
  // the tick is due within the hold (nearWake) anyway
  expect(rests.busyIn(look(epoll(29, 971)), PID)).toMatchObject({ state: "timer", timerDueMs: 29 });
});

test("a long tick's wait that began with under NEAR_WAKE_MS to go is a wake-up due soon; a longer one is not", () => {
  const rests = new RestModel();
  rests.remember(look(epoll(1000, 0)), false); // bun's 1 s tick, ending at 1000
  const soon = look(epoll(290, 710)); // an input 290 ms before the tick: a timer due later hides behind it
  expect(rests.busyIn(soon, PID)).toBeUndefined();
  expect(rests.shortTick(soon)).toBeUndefined();
  expect(rests.nearWake(soon)).toEqual({ tickMs: 290, wake: `${PID}@${1000 / 5}` });
  expect(rests.nearWake(look(epoll(NEAR_WAKE_MS, 1000 - NEAR_WAKE_MS)))).toBeUndefined();
});

test("a timerfd armed since the rest, in the set of a timerfd tick's wait on the grid, is a timer (the grid does not overrule it)", () => {
  // an untimed epoll_wait on a 1 s CLOCK_REALTIME timerfd tick (withEpollTimers: absolute, ending at its expiry)
  const tick = (at: number, oneShot?: { at: number; leftMs: number }): ThreadLook => {
    const thread = epoll(1000, at - 1000);
    return {
      ...thread,
      activity: { ...thread.activity, absolute: true, ...(oneShot ? { oneShot } : {}) },
    } as ThreadLook;
  };
  const rests = new RestModel();
  rests.remember(look(tick(1000)), false);
  expect(rests.busyIn(look(tick(2000)), PID)).toBeUndefined();
  expect(rests.busyIn(look(tick(2000, { at: 1450, leftMs: 450 })), PID)).toMatchObject({
    state: "timer",
    timerDueMs: 450,
  });
});
