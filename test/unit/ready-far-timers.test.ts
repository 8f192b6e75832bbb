/** Timers a settle cannot wait out (session/ready/far-timers.ts): when a timed wait surely ends after the cap. */
import { expect, test } from "bun:test";
import type { ThreadActivity } from "../../src/session/ready/classify.ts";
import { endsAfter } from "../../src/session/ready/far-timers.ts";

const epoll = (fields: Partial<Extract<ThreadActivity, { kind: "wait" }>>): ThreadActivity => ({
  kind: "wait",
  call: "epoll_pwait",
  nr: 281,
  waitKind: "input",
  timed: true,
  ...fields,
});

test("a relative wait that began since the input ends after the cap when its timeout, less the time since, is past it", () => {
  const v8 = epoll({ timeoutMs: 7000, deadline: 9000 });
  const before = epoll({ timed: false }); // node at rest in epoll with no timeout
  expect(endsAfter(v8, before, 30, 1970)).toBe(true);
  expect(endsAfter(v8, undefined, 30, 1970)).toBe(true); // a thread not in the look before
  expect(endsAfter(epoll({ timeoutMs: 1900, deadline: 3000 }), before, 30, 1970)).toBe(false);
  // within the margin of the cap: the look before came a little before the input
  expect(endsAfter(epoll({ timeoutMs: 2010, deadline: 3000 }), before, 30, 1970)).toBe(false);
});

test("the same wait as before the input is not known to have begun since: never far", () => {
  const wait = epoll({ timeoutMs: 7000, deadline: 9000 });
  expect(endsAfter(wait, { ...wait }, 30, 1970)).toBe(false);
  expect(endsAfter(epoll({ timeoutMs: 7000 }), epoll({ timeoutMs: 7000 }), 30, 1970)).toBe(false); // no deadlines
  // the same timeout slept again since (another deadline): it began since
  expect(endsAfter(wait, epoll({ timeoutMs: 7000, deadline: 2000 }), 30, 1970)).toBe(true);
});

test("an absolute timeout counts what was left at the look; a timerfd tick's period does not", () => {
  expect(endsAfter(epoll({ call: "futex", timeoutMs: 2500, absolute: true }), undefined, 30, 1970)).toBe(true);
  expect(endsAfter(epoll({ call: "futex", timeoutMs: 1500, absolute: true }), undefined, 30, 1970)).toBe(false);
  const tick = epoll({ timeoutMs: 5000, absolute: true, deadline: 123 });
  expect(endsAfter(tick, undefined, 30, 1970)).toBe(false);
});

test("a one-shot timerfd in the set ends the wait at its expiry if that comes first", () => {
  const oneShot = (leftMs: number) => ({ at: 0, leftMs });
  expect(endsAfter(epoll({ timed: false, oneShot: oneShot(3000) }), undefined, 30, 1970)).toBe(true);
  expect(endsAfter(epoll({ timed: false, oneShot: oneShot(800) }), undefined, 30, 1970)).toBe(false);
  expect(endsAfter(epoll({ timeoutMs: 7000, oneShot: oneShot(800) }), undefined, 30, 1970)).toBe(false);
  expect(endsAfter(epoll({ timed: false }), undefined, 30, 1970)).toBe(false); // no timer at all
  expect(endsAfter({ kind: "running" }, undefined, 30, 1970)).toBe(false);
});
