/** Row-level snapshot diff. */
import { describe, expect, test } from "bun:test";
import { diffSnapshots } from "../../src/term/diff.ts";

const snap = (lines: string[], cursor = { row: 0, col: 0, visible: true }, cols = 10, rows = lines.length) => ({
  lines,
  cursor,
  cols,
  rows,
});

describe("diffSnapshots", () => {
  test("identical", () => {
    const a = snap(["a", "b"]);
    expect(diffSnapshots(a, snap(["a", "b"]))).toEqual({
      identical: true,
      cursorMoved: false,
      resized: false,
      changedLines: [],
      addedRows: [],
      removedRows: [],
    });
  });

  test("changed rows", () => {
    const d = diffSnapshots(snap(["[x] one", "two", "three"]), snap(["[ ] one", "two", "3"]));
    expect(d.identical).toBe(false);
    expect(d.changedLines).toEqual([
      { row: 0, before: "[x] one", after: "[ ] one" },
      { row: 2, before: "three", after: "3" },
    ]);
    expect([d.addedRows, d.removedRows, d.cursorMoved, d.resized]).toEqual([[], [], false, false]);
  });

  test("added and removed rows when the row counts differ", () => {
    const grown = diffSnapshots(snap(["a"], undefined, 10, 1), snap(["a", "b", ""], undefined, 10, 3));
    expect(grown.addedRows).toEqual([
      { row: 1, text: "b" },
      { row: 2, text: "" },
    ]);
    expect(grown.removedRows).toEqual([]);
    expect(grown.resized).toBe(true);
    const shrunk = diffSnapshots(snap(["a", "b"]), snap(["z"]));
    expect(shrunk.changedLines).toEqual([{ row: 0, before: "a", after: "z" }]);
    expect(shrunk.removedRows).toEqual([{ row: 1, text: "b" }]);
    expect(shrunk.identical).toBe(false);
  });

  test("resized with the same text", () => {
    const d = diffSnapshots(snap(["a"], undefined, 10), snap(["a"], undefined, 12));
    expect(d).toMatchObject({ resized: true, identical: false, changedLines: [] });
  });

  test("cursor moved, and a visibility change alone is not a move", () => {
    const moved = diffSnapshots(
      snap(["a"], { row: 0, col: 0, visible: true }),
      snap(["a"], { row: 0, col: 1, visible: true }),
    );
    expect(moved).toMatchObject({ cursorMoved: true, identical: false });
    const hidden = diffSnapshots(
      snap(["a"], { row: 0, col: 0, visible: true }),
      snap(["a"], { row: 0, col: 0, visible: false }),
    );
    expect(hidden).toMatchObject({ cursorMoved: false, identical: true });
  });

  test("text-only input (as diff_snapshots receives it)", () => {
    const d = diffSnapshots({ text: "one\ntwo" }, { text: "one\n2\nthree" });
    expect(d).toEqual({
      identical: false,
      cursorMoved: false,
      resized: false,
      changedLines: [{ row: 1, before: "two", after: "2" }],
      addedRows: [{ row: 2, text: "three" }],
      removedRows: [],
    });
    expect(diffSnapshots({ text: "same" }, { lines: ["same"] }).identical).toBe(true);
  });

  test("tolerates missing or malformed fields from JSON", () => {
    const junk = { text: "a", cursor: null, cols: "wide" } as never;
    expect(diffSnapshots(junk, { text: "a", cursor: { row: 3, col: 3 }, cols: 10 }).identical).toBe(true);
    expect(diffSnapshots({} as never, { text: "x" }).addedRows).toEqual([{ row: 0, text: "x" }]);
  });
});
