/**
 * The start-up period watch (session/ready/startup.ts watchStartupPeriod): before the first input, a
 * thread seen waking at its wait's deadline and waiting again in the same call shows its whole
 * period, and that look is taken as the rest; a partial period seen at start-up is not. Output after
 * the watch saw it at rest is its own, once its start-up output is in.
 */
import { expect, test } from "bun:test";
import type { ThreadActivity } from "../../src/session/ready/classify.ts";
import type { ForegroundLooker } from "../../src/session/ready/foreground.ts";
import type { Look } from "../../src/session/ready/reading.ts";
import { RestModel } from "../../src/session/ready/rest-model.ts";
import { watchStartupPeriod } from "../../src/session/ready/startup.ts";
import type { Session } from "../../src/session/session.ts";

const PID = 100;
/** bun's main thread in epoll_pwait2(timeoutMs), asleep since `sleptAt` (scheduler's clock). */
function bunWaiting(timeoutMs: number, sleptAt: number): Look {
  const activity: ThreadActivity = {
    kind: "wait",
    call: "epoll_pwait2",
    nr: 441,
    waitKind: "input",
    timed: true,
    timeoutMs,
    deadline: sleptAt + timeoutMs,
  };
  return {
    at: 0,
    tpgid: PID,
    leader: "bun",
    pids: [PID],
    threads: [{ pid: PID, tid: PID, command: "bun", activity }],
    io: new Map(),
    unread: 0,
  };
}

/** A fence that never comes back (none can be raised): only the byte counters say the output is in. */
const noFence = { raise: () => undefined, passed: () => false, coming: () => false };

function watch(looks: Look[], options: { inputAfter?: number; received?: (looked: number) => number } = {}) {
  const rests = new RestModel();
  const remembered: Look[] = [];
  const remember = rests.remember.bind(rests);
  rests.remember = (seen, startup) => {
    remembered.push(seen);
    remember(seen, startup);
  };
  let looked = 0;
  let quietRests = 0;
  let quietAtLook = 0;
  const group = {
    available: true,
    guarded: <T>(read: () => T) => read(),
    lookNow: () => looks[Math.min(looked++, looks.length - 1)],
  } as unknown as ForegroundLooker;
  const session = {
    running: true,
    pid: PID,
    lastOutputAt: performance.now() - 1000,
    get bytesOut() {
      return options.received?.(looked) ?? 0;
    },
    fence: noFence,
  } as unknown as Session;
  const done = watchStartupPeriod(
    session,
    group,
    rests,
    () => options.inputAfter !== undefined && looked >= options.inputAfter,
    () => {
      quietRests++;
      quietAtLook = looked;
    },
  );
  return { done, rests, remembered, looks: () => looked, quietRests: () => quietRests, quietAtLook: () => quietAtLook };
}

test("a wake at the deadline and a new wait in the same call: the whole period is the rest", async () => {
  // 880 ms left of bun's first 1 s period (ending at 1000), then at 1000 a new wait of 1000
  const whole = bunWaiting(1000, 1000.4);
  const { done, rests, remembered, quietRests } = watch([bunWaiting(880, 120), bunWaiting(880, 120), whole]);
  await done;
  expect(quietRests()).toBe(0); // learnt before STARTUP_QUIET_MS
  expect(remembered).toEqual([whole]);
  expect(rests.restGroup).toBe(PID);
  expect(rests.shortTick(whole)).toBeUndefined(); // a 1 s tick: not a short one
});

test("a new wait that did not begin at the last one's deadline (an input woke it) teaches nothing", async () => {
  const { done, remembered, looks, quietRests } = watch([bunWaiting(880, 120), bunWaiting(500, 400)], {
    inputAfter: 15,
    received: () => 7, // READY\r\n, in
  });
  await done;
  expect(remembered).toEqual([]);
  expect(looks()).toBe(15);
  // waiting 200 ms after the watch began: told once that output from now on is the program's own
  expect(quietRests()).toBe(1);
});

test("a program resting with no timer ends the watch at once: the start-up rule takes its rest", async () => {
  const untimed = bunWaiting(1000, 0);
  const activity = untimed.threads[0]!.activity as Extract<ThreadActivity, { kind: "wait" }>;
  activity.timed = false;
  delete activity.timeoutMs;
  delete activity.deadline;
  const { done, remembered, looks } = watch([untimed]);
  await done;
  expect(remembered).toEqual([]);
  expect(looks()).toBe(1);
});

test("at rest with its start-up output still on its way (a lagging reader): not yet told its own output begins", async () => {
  // READY\r\n written, none of it received until the 20th look (20 ms apart: past STARTUP_QUIET_MS)
  const timed = { ...bunWaiting(880, 120), io: new Map([[PID, { rchar: 0, wchar: 7 }]]) };
  const lagging = watch([timed], { inputAfter: 30, received: (looked) => (looked >= 20 ? 9 : 0) });
  await lagging.done;
  expect(lagging.quietRests()).toBe(1);
  expect(lagging.quietAtLook()).toBe(20);
  const never = watch([timed], { inputAfter: 30, received: () => 0 });
  await never.done;
  expect(never.quietRests()).toBe(0);
});

test("a program that has shown nothing yet is still starting: its first screen is not output of its own", async () => {
  // In waits (a connection to a server) with nothing written for 200 ms, then READY at the 20th look.
  const timed = { ...bunWaiting(880, 120), io: new Map([[PID, { rchar: 0, wchar: 0 }]]) };
  const starting = watch([timed], { inputAfter: 30, received: (looked) => (looked >= 20 ? 7 : 0) });
  await starting.done;
  expect(starting.quietAtLook()).toBe(20);
});
