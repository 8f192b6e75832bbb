/**
 * Row-level diff of two screens. Pure; accepts full snapshots and also the looser objects the
 * diff_snapshots tool receives as JSON (only `text`, or `lines`, with cursor/cols/rows optional).
 */
import type { Snapshot, SnapshotDiff } from "./types.ts";

/** A snapshot, or any part of one that still says what the rows were (`lines` or `text`). */
export type DiffInput = Partial<Pick<Snapshot, "lines" | "text" | "cols" | "rows">> & {
  cursor?: { row: number; col: number; visible?: boolean };
};

function rowsOf(s: DiffInput): string[] {
  if (Array.isArray(s.lines)) return s.lines.map((l) => (typeof l === "string" ? l : String(l)));
  return typeof s.text === "string" ? s.text.split("\n") : [];
}

const isNumber = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n);

/** Cursor moved: only when both sides carry a cursor and its row or column differs. */
function cursorMoved(a: DiffInput["cursor"], b: DiffInput["cursor"]): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return false;
  return a.row !== b.row || a.col !== b.col;
}

/** Resized: a dimension both sides report differs. */
function resized(a: DiffInput, b: DiffInput): boolean {
  const differs = (x: unknown, y: unknown) => isNumber(x) && isNumber(y) && x !== y;
  return differs(a.cols, b.cols) || differs(a.rows, b.rows);
}

export function diffSnapshots(before: DiffInput, after: DiffInput): SnapshotDiff {
  const a = rowsOf(before);
  const b = rowsOf(after);
  const common = Math.min(a.length, b.length);
  const changedLines: SnapshotDiff["changedLines"] = [];
  for (let row = 0; row < common; row++) {
    if (a[row] !== b[row]) changedLines.push({ row, before: a[row]!, after: b[row]! });
  }
  const addedRows = b.slice(common).map((text, i) => ({ row: common + i, text }));
  const removedRows = a.slice(common).map((text, i) => ({ row: common + i, text }));
  const moved = cursorMoved(before.cursor, after.cursor);
  const size = resized(before, after);
  return {
    identical: changedLines.length === 0 && addedRows.length === 0 && removedRows.length === 0 && !moved && !size,
    cursorMoved: moved,
    resized: size,
    changedLines,
    addedRows,
    removedRows,
  };
}
