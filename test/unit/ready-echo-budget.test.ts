/** The most a cooked-mode terminal echoes for an input (echo-budget.ts). */
import { expect, test } from "bun:test";
import { echoBudget } from "../../src/session/ready/echo-budget.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

test("printable bytes echo once; control characters as ^X or CR LF; an erase as \\b \\b; a tab as up to 8", () => {
  expect(echoBudget(bytes("ls -l"))).toBe(5);
  expect(echoBudget(bytes("ls\r"))).toBe(5);
  expect(echoBudget(bytes("a\x7f"))).toBe(4);
  expect(echoBudget(bytes("\t"))).toBe(8);
  expect(echoBudget(bytes("é"))).toBe(2); // two UTF-8 bytes, at most one each
});

test("a line kill or word erase rubs out the whole line: no bound", () => {
  expect(echoBudget(bytes("abc\x15"))).toBe(Number.POSITIVE_INFINITY);
  expect(echoBudget(bytes("abc\x17"))).toBe(Number.POSITIVE_INFINITY);
});
