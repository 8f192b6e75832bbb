import { expect, test } from "bun:test";
import { Listeners } from "../../src/util/listeners.ts";

test("listeners are called in the order added, with the event's arguments, until unsubscribed", () => {
  const listeners = new Listeners<[n: number, from: string]>();
  const calls: string[] = [];
  const offFirst = listeners.add((n, from) => calls.push(`first ${n} ${from}`));
  listeners.add((n, from) => calls.push(`second ${n} ${from}`));
  expect(listeners.size).toBe(2);
  listeners.emit(1, "agent");
  offFirst();
  listeners.emit(2, "human");
  expect(calls).toEqual(["first 1 agent", "second 1 agent", "second 2 human"]);
  expect(listeners.size).toBe(1);
});
