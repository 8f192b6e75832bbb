/** Which highlight an input moved (a menu's selection bar), for save_test's wait on it. */
import type { Highlight } from "../term/types.ts";

/** The highlight that is new since the input (a selection bar moved there), preferring bars to bold runs. */
export function movedHighlight(before: Highlight[], now: Highlight[]): Highlight | undefined {
  const same = (a: Highlight, b: Highlight) =>
    a.row === b.row && a.startCol === b.startCol && a.endCol === b.endCol && a.text === b.text && a.kind === b.kind;
  const fresh = now.filter((h) => !before.some((b) => same(b, h)) && h.text.trim() !== "");
  const first = fresh.find((h) => h.kind !== "bold") ?? fresh[0];
  if (!first) return undefined;
  // a bar often has parts (dialog's tag and label): the new runs on its row, as one stretch
  const onRow = fresh.filter((h) => h.row === first.row).sort((a, b) => a.startCol - b.startCol);
  const startCol = onRow[0]!.startCol;
  const endCol = Math.max(...onRow.map((h) => h.endCol));
  return { ...first, startCol, endCol, text: onRow.map((h) => h.text.trim()).join(" ") };
}
