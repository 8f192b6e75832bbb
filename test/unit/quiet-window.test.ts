/**
 * The quiet window (the settle where the ready oracle cannot run) to the millisecond, on fake timers:
 * up to 150 ms for a first answer, then 100 ms of quiet, at most 500 ms after the input.
 */
import { expect, jest, test } from "bun:test";
import {
  ADAPTIVE_QUIET_MS,
  FIRST_OUTPUT_MS,
  isQuiet,
  MAX_SETTLE_MS,
  quietPeriod,
  quietSettle,
  type Watched,
} from "../../src/session/quiet-window.ts";
import { advance, track, useFakeTime } from "./fake-time.ts";

useFakeTime();

type ExitListener = Parameters<Watched["onExit"]>[0];

/** A session as the quiet window sees it, driven by hand. */
function fakeSession() {
  const outputs = new Set<(chunk: Uint8Array) => void>();
  const exits = new Set<ExitListener>();
  const session = {
    running: true,
    lastOutputAt: performance.now() - 10_000,
    onOutput(listener: (chunk: Uint8Array) => void) {
      outputs.add(listener);
      return () => void outputs.delete(listener);
    },
    onExit(listener: ExitListener) {
      exits.add(listener);
      return () => void exits.delete(listener);
    },
  };
  return {
    session,
    listeners: () => outputs.size + exits.size,
    output() {
      session.lastOutputAt = performance.now();
      for (const listener of [...outputs]) listener(new Uint8Array([0x2e]));
    },
    exit() {
      session.running = false;
      for (const listener of [...exits]) listener({ exitCode: 0, signal: null } as Parameters<ExitListener>[0]);
    },
  };
}

test("the bounds are 150, 100 and 500 ms", () => {
  expect([FIRST_OUTPUT_MS, ADAPTIVE_QUIET_MS, MAX_SETTLE_MS]).toEqual([150, 100, 500]);
});

test("quiet means no output for 100 ms, or the program gone", () => {
  const { session, output, exit } = fakeSession();
  output();
  jest.advanceTimersByTime(ADAPTIVE_QUIET_MS - 1);
  expect(isQuiet(session)).toBe(false);
  jest.advanceTimersByTime(1);
  expect(isQuiet(session)).toBe(true);
  output();
  exit();
  expect(isQuiet(session)).toBe(true);
});

test("no answer at all: the settle ends 150 ms after the input, and lets go of the session", async () => {
  const { session, listeners } = fakeSession();
  const settle = track(quietSettle(session, performance.now()));
  await advance(FIRST_OUTPUT_MS - 1);
  expect(settle.done).toBe(false);
  expect(listeners()).toBe(2);
  await advance(1);
  expect(settle.done).toBe(true);
  expect(listeners()).toBe(0);
});

test("an answer, then quiet: the settle ends 100 ms after the answer", async () => {
  const { session, output, listeners } = fakeSession();
  const settle = track(quietSettle(session, performance.now()));
  await advance(20);
  output();
  await advance(ADAPTIVE_QUIET_MS - 1);
  expect(settle.done).toBe(false);
  await advance(1);
  expect(settle.done).toBe(true);
  expect(listeners()).toBe(0);
});

test("output that never stops: the settle ends 500 ms after the input", async () => {
  const { session, output } = fakeSession();
  const since = performance.now();
  const settle = track(quietSettle(session, since));
  for (let i = 0; i < 9; i++) {
    await advance(50);
    output(); // the last at 450 ms: its quiet would end at 550, past the cap
  }
  await advance(since + MAX_SETTLE_MS - 1 - performance.now());
  expect(settle.done).toBe(false);
  await advance(1);
  expect(settle.done).toBe(true);
});

test("an answer already in before the settle starts: no first-answer wait, quiet counted from it", async () => {
  const { session, output } = fakeSession();
  const since = performance.now();
  await advance(30);
  output();
  await advance(40);
  const settle = track(quietSettle(session, since));
  await advance(ADAPTIVE_QUIET_MS - 40 - 1);
  expect(settle.done).toBe(false);
  await advance(1);
  expect(settle.done).toBe(true);
});

test("an exit while waiting for the answer ends the settle at once", async () => {
  const { session, exit, listeners } = fakeSession();
  const settle = track(quietSettle(session, performance.now()));
  await advance(10);
  exit();
  await advance(0);
  expect(settle.done).toBe(true);
  expect(listeners()).toBe(0);
});

test("a program already gone settles at once", async () => {
  const { session, exit } = fakeSession();
  exit();
  const settle = track(quietSettle(session, performance.now()));
  await advance(0);
  expect(settle.done).toBe(true);
});

test("quietPeriod: true after quietMs without output, false at the deadline, quiet counted from `since`", async () => {
  const { session, output } = fakeSession();
  const quiet = track(quietPeriod(session, 100, 1000, performance.now()));
  await advance(99);
  expect(quiet.done).toBe(false);
  await advance(1);
  expect(quiet.value).toBe(true);

  const busy = track(quietPeriod(session, 100, 300, performance.now()));
  for (let i = 0; i < 5; i++) {
    await advance(60);
    output();
  }
  expect(busy.value).toBe(false);
  expect(busy.done).toBe(true);
});

test("quietPeriod: a later output pushes the end back by the whole window", async () => {
  const { session, output } = fakeSession();
  const quiet = track(quietPeriod(session, 100, 1000, performance.now()));
  await advance(90);
  output();
  expect(jest.getTimerCount()).toBe(1); // the earlier end was called off, not left to fire
  await advance(99);
  expect(quiet.done).toBe(false);
  await advance(1);
  expect(quiet.value).toBe(true);
});

test("quietPeriod: an abort rejects with CANCELLED and lets go of the session", async () => {
  const { session, listeners } = fakeSession();
  const controller = new AbortController();
  const wait = track(quietPeriod(session, 100, 1000, performance.now(), controller.signal));
  await advance(10);
  controller.abort();
  expect(jest.getTimerCount()).toBe(0);
  await advance(0);
  expect((wait.error as { code?: string }).code).toBe("CANCELLED");
  expect((wait.error as Error).message).toBe("The wait was cancelled by the client.");
  expect(listeners()).toBe(0);
  await advance(1000);
  expect(wait.value).toBeUndefined();
});

test("the settle swallows an abort of its quiet period (the caller sees the abort elsewhere)", async () => {
  const { session, output } = fakeSession();
  const controller = new AbortController();
  const settle = track(quietSettle(session, performance.now(), controller.signal));
  await advance(5);
  output();
  controller.abort();
  await advance(0);
  expect(settle.done).toBe(true);
  expect(settle.error).toBeUndefined();
});

test("quietPeriod: a signal aborted before the wait starts rejects at once", async () => {
  const { session, listeners } = fakeSession();
  const controller = new AbortController();
  controller.abort();
  const wait = track(quietPeriod(session, 100, 1000, performance.now(), controller.signal));
  await advance(0);
  expect((wait.error as { code?: string }).code).toBe("CANCELLED");
  expect((wait.error as Error).message).toBe("The wait was cancelled by the client.");
  expect(listeners()).toBe(0);
});

test("output at the very instant of the input counts as before it: the settle still waits for an answer", async () => {
  const { session, output } = fakeSession();
  output();
  const settle = track(quietSettle(session, session.lastOutputAt));
  await advance(FIRST_OUTPUT_MS - 1);
  expect(settle.done).toBe(false);
  await advance(1);
  expect(settle.done).toBe(true);
});

test("quietPeriod lets go of the abort signal when it ends", async () => {
  const { session } = fakeSession();
  const added: unknown[] = [];
  const removed: unknown[] = [];
  const signal = {
    aborted: false,
    addEventListener: (_: string, listener: unknown) => added.push(listener),
    removeEventListener: (type: string, listener: unknown) => type === "abort" && removed.push(listener),
  } as unknown as AbortSignal;
  const quiet = track(quietPeriod(session, 100, 1000, performance.now(), signal));
  await advance(100);
  expect(quiet.value).toBe(true);
  expect(removed).toEqual(added);
  expect(added).toHaveLength(1);
});
