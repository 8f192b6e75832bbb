/** Snapshot masks: rectangles keep their size, text matches collapse to one ▒ whatever their length. */
import { expect, test } from "bun:test";
import { maskCells } from "../../src/lib/mask.ts";
import { BLANK_CELL } from "../../src/term/cells.ts";
import type { CellInfo } from "../../src/term/types.ts";

const plain = BLANK_CELL;
const row = (text: string, attrs: Partial<CellInfo> = {}) => [...text].map((char) => ({ ...plain, char, ...attrs }));
const text = (grid: CellInfo[][]) => grid.map((cells) => cells.map((c) => c.char).join(""));

test("a text or RegExp match becomes one ▒, so runs of different lengths mask alike", () => {
  expect(text(maskCells([row("pid 812 up"), row("pid 12045 up")], [/\d+/]))).toEqual(["pid ▒ up", "pid ▒ up"]);
  expect(text(maskCells([row("at 10:42:07, at 09:01:00")], [/\d\d:\d\d:\d\d/g]))).toEqual(["at ▒, at ▒"]);
  expect(text(maskCells([row("a.b a.b")], ["a.b"]))).toEqual(["▒ ▒"]);
  // a RegExp that can match nothing masks nothing
  expect(text(maskCells([row("abc")], [/x*/]))).toEqual(["abc"]);
});

test("a rectangle keeps its width, in default colours; the grid is not changed in place", () => {
  const grid = [row("12345", { fg: "p1" }), row("abcde")];
  const masked = maskCells(grid, [{ row: 0, col: 1, cols: 2 }]);
  expect(text(masked)).toEqual(["1▒▒45", "abcde"]);
  expect(masked[0]![1]!.fg).toBe("default");
  expect(text(grid)).toEqual(["12345", "abcde"]);
  expect(text(maskCells(grid, [{ row: 1 }]))).toEqual(["12345", "▒▒▒▒▒"]);
});

test("wide characters: a match covers both cells, a rectangle draws ▒▒ for one", () => {
  const wide = [{ ...plain, char: "界", width: 2 }, { ...plain, char: "", width: 0 }, ...row("x")];
  expect(text(maskCells([wide], ["界"]))).toEqual(["▒x"]);
  expect(text(maskCells([wide], [{ row: 0, col: 0, cols: 1 }]))).toEqual(["▒▒x"]);
});
