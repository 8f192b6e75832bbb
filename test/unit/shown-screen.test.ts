/** screenDetail auto: an input's reply lists the rows changed since the screen the model was last shown. */
import { expect, test } from "bun:test";
import type { ScreenBlock, ScreenView } from "../../src/session/observe.ts";
import { diffSnapshots } from "../../src/term/diff.ts";
import type { Highlight } from "../../src/term/types.ts";
import { renderText } from "../../src/tools/render-text.ts";
import { sinceShownParts } from "../../src/tools/reply.ts";
import type { ShownScreen } from "../../src/tools/shown-screen.ts";

const view = (rows: string[], highlights: Highlight[] = []): ScreenView => ({
  text: rows.join("\n"),
  lines: rows,
  cursor: { row: 0, col: 0, visible: true },
  highlights,
  cols: 20,
  rows: rows.length,
});

const block = (before: ScreenView, after: ScreenView): ScreenBlock => ({
  before,
  after,
  diff: diffSnapshots(before, after),
  settle: "adaptive",
  settledBy: "idle",
  program: "bash",
  waitAfterMs: 3,
  waitedMs: 3,
  quiet: true,
  totalMs: 4,
});

const screen = Array.from({ length: 10 }, (_, i) => `row ${i}`);
const shownOf = (v: ScreenView): ShownScreen => ({ ...v, highlights: v.highlights });

test("few rows changed since the screen shown: those rows and the cursor, no screen", () => {
  const before = view(screen);
  const after = view(screen.map((r, i) => (i === 3 ? "row 3 edited" : r)));
  const parts = sinceShownParts(block(before, after), shownOf(before));
  expect(parts).toBeDefined();
  const text = renderText("Sent", parts!);
  expect(text).toBe(
    "Sent\nSettled in 3 ms: bash is waiting for input.\nChanged rows:\n3- row 3\n3+ row 3 edited\nCursor 0,0.",
  );
});

test("rows that changed before the input count too: the reply says they differ from the screen last shown", () => {
  const shown = view(screen);
  const before = view(screen.map((r, i) => (i === 0 ? "clock 12:01" : r)));
  const after = view(before.lines.map((r, i) => (i === 5 ? "row 5 edited" : r)));
  const text = renderText("Sent", sinceShownParts(block(before, after), shownOf(shown))!);
  expect(text).toContain(
    "Changed rows since the last screen shown:\n0- row 0\n0+ clock 12:01\n5- row 5\n5+ row 5 edited",
  );
  expect(text).not.toContain("row 9");
});

test("most rows changed, another size, or nothing shown: the whole screen is printed instead", () => {
  const before = view(screen);
  const after = view(screen.map((r) => `${r} new`));
  expect(sinceShownParts(block(before, after), shownOf(before))).toBeUndefined();
  const wider = { ...shownOf(before), cols: 30 };
  expect(sinceShownParts(block(before, view(screen)), wider)).toBeUndefined();
});

test("highlights are listed when they differ from the screen shown, else said to be as before", () => {
  const bar: Highlight = { row: 1, startCol: 0, endCol: 5, text: "row 1", kind: "inverse" };
  const moved: Highlight = { row: 2, startCol: 0, endCol: 5, text: "row 2", kind: "inverse" };
  const before = view(screen, [bar]);
  const edited = screen.map((r, i) => (i === 7 ? "row 7 edited" : r));
  const same = renderText("Sent", sinceShownParts(block(before, view(edited, [bar])), shownOf(before))!);
  expect(same).toContain("Highlights as before.");
  expect(same).not.toContain("Highlighted");
  const changed = renderText("Sent", sinceShownParts(block(before, view(edited, [moved])), shownOf(before))!);
  expect(changed).toContain('2 inverse: 0-5 "row 2"');
});
