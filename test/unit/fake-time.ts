/**
 * Helpers for tests on Bun's fake timers (`jest.useFakeTimers()`, which also moves `performance.now()`
 * and `Bun.sleep`): follow a promise without awaiting it, and move the clock with its callbacks run.
 */
import { afterEach, beforeEach, expect, jest } from "bun:test";

/** Fake timers for every test of the calling file; each test must leave no timer pending. */
export function useFakeTime(before: () => void = () => {}): void {
  beforeEach(() => {
    jest.useFakeTimers();
    jest.advanceTimersByTime(100_000); // the fake clock starts at 0: keep "now" well above the windows
    before();
  });
  afterEach(() => {
    expect(jest.getTimerCount()).toBe(0); // every wait cleared or fired its timers: none is left behind
    jest.useRealTimers();
  });
}

/** Tracks whether a promise has settled, and how. */
export function track<T>(promise: Promise<T>) {
  const state: { done: boolean; value?: T; error?: unknown } = { done: false };
  promise.then(
    (value) => Object.assign(state, { done: true, value }),
    (error) => Object.assign(state, { done: true, error }),
  );
  return state;
}

/** Run the promise callbacks queued so far (no time passes). */
export async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

/** Move the fake clock by `ms`, firing due timers, then run what they queued. */
export async function advance(ms: number): Promise<void> {
  jest.advanceTimersByTime(ms);
  await flush();
}
