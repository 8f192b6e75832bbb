/** Matchers with `accept`: later candidates are tried when one is refused (how waits skip the echo). */
import { expect, test } from "bun:test";
import { compileMatcher, MAX_CANDIDATES } from "../../src/session/matcher.ts";

const notAt =
  (...starts: number[]) =>
  (index: number) =>
    !starts.includes(index);

test("a literal skips refused matches and finds the next", () => {
  using m = compileMatcher({ pattern: "DONE" });
  expect(m.find("DONE x DONE", { accept: notAt(0) })).toEqual({ value: "DONE", index: 7, length: 4 });
  expect(m.find("DONE", { accept: notAt(0) })).toBeNull();
});

test("a literal matched as displayed (trailing spaces) honours accept", () => {
  using m = compileMatcher({ pattern: "$ " });
  expect(m.find("$ echo\n$", { screenCols: 10, accept: notAt(0) })).toMatchObject({ index: 7 });
});

test("RE2: the next match from one past the refused one's start, with its groups", () => {
  using m = compileMatcher({ pattern: "v(\\d)", regex: true });
  expect(m.find("v1 v2 v3", { accept: notAt(0, 3) })).toEqual({ value: ["v3", "3"], index: 6, length: 2 });
  expect(m.find("v1", { accept: () => false })).toBeNull();
});

test("at most MAX_CANDIDATES are tried", () => {
  using m = compileMatcher({ pattern: "a" });
  let tried = 0;
  const text = "a".repeat(MAX_CANDIDATES * 4);
  expect(m.find(text, { accept: () => (tried++, false) })).toBeNull();
  expect(tried).toBeLessThanOrEqual(MAX_CANDIDATES * 2);
});
