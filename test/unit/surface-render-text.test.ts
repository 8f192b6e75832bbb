/** The model's text view, from the parts handlers name: highlights, honest settle, frames as diffs. */
import { expect, test } from "bun:test";
import type { ScreenBlock } from "../../src/session/observe.ts";
import { monitorParts } from "../../src/tools/monitor-tools.ts";
import { renderErrorText, renderText } from "../../src/tools/render-text.ts";
import { blockParts, fieldsWithout, viewParts } from "../../src/tools/reply.ts";

const view = (text: string, extra: Record<string, unknown> = {}) => ({
  text,
  lines: text.split("\n"),
  cursor: { row: 1, col: 0, visible: false },
  cols: 20,
  rows: 4,
  ...extra,
});

test("highlights are marked, so a text-only agent can see the selected item", () => {
  const highlights = [{ row: 1, startCol: 2, endCol: 8, text: "Second", kind: "inverse" }];
  const text = renderText("20x4 screen", viewParts(view("  First\n  Second\n  Third\n", { highlights })));
  expect(text).toBe(
    '20x4 screen\nScreen (20x4, cursor 1,0 hidden):\n  First\n  Second\n  Third\nHighlighted (row kind: cols text):\n1 inverse: 2-8 "Second"',
  );
});

test("highlights: one line per row and kind, touching spans of a kind merged, a whole row not quoted again", () => {
  const highlights = [
    { row: 0, startCol: 0, endCol: 20, text: "  First", kind: "inverse" },
    { row: 2, startCol: 0, endCol: 4, text: "Help", kind: "background" },
    { row: 2, startCol: 4, endCol: 6, text: "F2", kind: "background" },
    { row: 2, startCol: 8, endCol: 12, text: "Quit", kind: "background" },
    { row: 2, startCol: 12, endCol: 14, text: "!!", kind: "bold" },
  ];
  const text = renderText("s", viewParts(view("  First\n\nHelpF2  Quit!!", { highlights })));
  expect(text.split("\n").slice(-3)).toEqual([
    "0 inverse: 0-20 (whole row)",
    '2 background: 0-6 "HelpF2", 8-12 "Quit"',
    '2 bold: 12-14 "!!"',
  ]);
});

test("a screen with very many highlights lists the first 40 and says how many more", () => {
  const highlights = Array.from({ length: 50 }, (_, row) => ({
    row,
    startCol: 0,
    endCol: 1,
    text: "x",
    kind: "background",
  }));
  const text = renderText("s", viewParts(view("x", { highlights })));
  expect(text).toContain('39 background: 0-1 "x"');
  expect(text).not.toContain("40 background");
  expect(text).toContain("(10 more not listed)");
});

test("an input's after-screen carries its highlights; the before-screen is never printed", () => {
  const before = view("  First\n  Second\n\n");
  const after = view("  First\n  Second\n\n", {
    highlights: [{ row: 0, startCol: 2, endCol: 7, text: "First", kind: "background" }],
  });
  const screen = {
    before,
    after,
    diff: { identical: false, cursorMoved: true, resized: false, changedLines: [], addedRows: [], removedRows: [] },
    settle: "adaptive",
    settledBy: "idle",
    program: "htop",
    waitAfterMs: 150,
    waitedMs: 23,
    quiet: true,
    totalMs: 25,
  };
  const text = renderText("Sent 1 key(s), 3 bytes", blockParts(screen as unknown as ScreenBlock));
  expect(text).toContain("Settled in 23 ms: htop is waiting for input.");
  expect(text).toContain('0 background: 2-7 "First"');
  expect(text.match(/Second/g)?.length).toBe(1);
});

test("a settle that stopped while output was still arriving says so and how to catch the rest", () => {
  const screen = {
    diff: { identical: true, cursorMoved: false, resized: false, changedLines: [], addedRows: [], removedRows: [] },
    cursor: { row: 0, col: 0, visible: true },
    settle: "adaptive",
    settledBy: "timeout",
    busy: { pid: 42, command: "python3", state: "running" },
    waitAfterMs: 150,
    waitedMs: 150,
    quiet: false,
    totalMs: 150,
  };
  const text = renderText("Sent 1 bytes of text", blockParts(screen as unknown as ScreenBlock));
  expect(text).toContain("Still busy after 150 ms: python3 (pid 42) is running. Use waitFor or wait_for_idle");
  expect(text).toContain("Screen unchanged.");
  expect(text).toContain("Cursor 0,0.");
});

test("many changed rows are given as ranges when the screen follows", () => {
  const lines = Array.from({ length: 20 }, (_, i) => `row ${i}`);
  const changedLines = lines.map((after, row) => ({ row, before: `old ${row}`, after }));
  const after = { text: lines.join("\n"), lines, cursor: { row: 19, col: 0, visible: true }, cols: 20, rows: 20 };
  const block = {
    before: after,
    after,
    diff: { identical: false, cursorMoved: false, resized: false, changedLines, addedRows: [], removedRows: [] },
    settle: "fixed",
    waitAfterMs: 10,
    totalMs: 10,
  };
  const text = renderText("Sent", blockParts(block as never));
  expect(text).toContain("Changed rows: 0-19 (see screen).");
  expect(text).not.toContain("old 3");
  expect(text).toContain("Waited 10 ms.");
});

test("droppedBytes, exit fields and unknown fields are not lost", () => {
  const text = renderText("tui-1: exit code 0", {
    fields: fieldsWithout({ sessionId: "tui-1", exited: true, exitCode: 0, droppedBytes: 512, newThing: { a: 1 } }),
  });
  expect(text).not.toContain("tui-1,");
  expect(text).toContain("droppedBytes: 512");
  expect(text).toContain("exitCode: 0");
  expect(text).toContain('newThing: {"a":1}');
});

test("monitor frames kept as diffs render their changed rows", () => {
  const frames = [
    { offsetMs: 0, changed: true, text: "a\nb", cursor: { row: 0, col: 0, visible: true } },
    {
      offsetMs: 10,
      changed: true,
      diff: { identical: false, changedLines: [{ row: 1, before: "b", after: "c" }], addedRows: [], removedRows: [] },
    },
    { offsetMs: 20, changed: false, diff: { identical: true, changedLines: [], addedRows: [], removedRows: [] } },
  ];
  const report = {
    monitorId: "m",
    sessionId: "s",
    frameCount: 3,
    droppedFrames: 0,
    truncated: false,
    frames,
    finalText: "a\nc",
  };
  const text = renderText("3 frames", monitorParts(report as never));
  expect(text).toContain("Frame 0 at +0 ms, cursor 0,0:\na\nb");
  expect(text).toContain("Frame 1 at +10 ms:\nChanged rows:\n1+ c");
  expect(text).not.toContain("Frame 2");
  expect(text).toContain("truncated: false");
});

test("errors keep code, message, hint and details", () => {
  const text = renderErrorText(
    { code: "SESSION_EXITED", message: "tui-1 has exited.", hint: "Start a new session." },
    { fields: { exit: { exitCode: 7 } } },
  );
  expect(text).toBe('Error SESSION_EXITED: tui-1 has exited.\nFix: Start a new session.\nexit: {"exitCode":7}');
});

test("a summary is always one line", () => {
  expect(renderText('Matched "a\nb"', {}).split("\n").length).toBe(1);
});

test("an unchanged screen lists its highlights only when they moved", () => {
  const view = (highlights: unknown[]) => ({
    text: "menu",
    lines: ["menu"],
    cursor: { row: 0, col: 0, visible: true },
    highlights,
    cols: 10,
    rows: 1,
  });
  const diff = {
    identical: true,
    cursorMoved: false,
    resized: false,
    changedLines: [],
    addedRows: [],
    removedRows: [],
  };
  const a = [{ row: 0, startCol: 0, endCol: 2, text: "me", kind: "inverse" }];
  const b = [{ row: 0, startCol: 2, endCol: 4, text: "nu", kind: "inverse" }];
  const block = (before: unknown[], after: unknown[]) =>
    ({ before: view(before), after: view(after), diff, settledBy: "idle", waitedMs: 3 }) as unknown as ScreenBlock;
  const same = renderText("Sent", blockParts(block(a, a)));
  expect(same).toContain("Screen unchanged; highlights as before.");
  expect(same).not.toContain("Highlighted");
  const moved = renderText("Sent", blockParts(block(a, b)));
  expect(moved).toContain("Screen unchanged.");
  expect(moved).toContain('0 inverse: 2-4 "nu"');
});
