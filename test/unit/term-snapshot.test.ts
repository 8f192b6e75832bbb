/** Snapshot formats: cells with colours and attributes, ANSI, scrollback and the alternate screen. */
import { describe, expect, test } from "bun:test";
import { useEmulators } from "./emulator-harness.ts";

const newEmulator = useEmulators();
const makeEmulator = (cols = 20, rows = 5, scrollback?: number) => newEmulator({ cols, rows, scrollback });

describe("cells", () => {
  test("SGR attributes land on the right cells, one run per change of attributes", async () => {
    const { emulator, feed } = makeEmulator(30, 3);
    await feed(
      "\x1b[1mB\x1b[0m\x1b[3mI\x1b[0m\x1b[4mU\x1b[0m\x1b[7mR\x1b[0m\x1b[2mD\x1b[0m\x1b[9mS\x1b[0m\x1b[5mK\x1b[0m\x1b[8mH\x1b[0m\x1b[53mO\x1b[0mn",
    );
    const row = emulator.snapshot({ format: "cells" }).cells!.rows[0]!;
    expect(row.map((run) => [run.col, run.text, run.attrs ?? []])).toEqual([
      [0, "B", ["bold"]],
      [1, "I", ["italic"]],
      [2, "U", ["underline"]],
      [3, "R", ["inverse"]],
      [4, "D", ["dim"]],
      [5, "S", ["strikethrough"]],
      [6, "K", ["blink"]],
      [7, "H", ["invisible"]],
      [8, "O", ["overline"]],
      [9, "n", []],
    ]);
    // defaults are left out
    expect(row[9]).toEqual({ col: 9, text: "n" });
  });

  test("palette, 256-colour and true-colour foregrounds and backgrounds", async () => {
    const { emulator, feed } = makeEmulator(30, 3);
    await feed(
      "\x1b[31ma\x1b[38;5;196mb\x1b[38;2;1;2;3mc\x1b[0m\x1b[48;5;21md\x1b[0m\x1b[48;2;255;128;0me\x1b[0m\x1b[91mf\x1b[0m  \x1b[44m  ",
    );
    const row = emulator.snapshot({ format: "cells" }).cells!.rows[0]!;
    expect(row.map((r) => [r.text, r.fg ?? "default", r.bg ?? "default"])).toEqual([
      ["a", "p1", "default"],
      ["b", "p196", "default"],
      ["c", "#010203", "default"],
      ["d", "default", "p21"],
      ["e", "default", "#ff8000"],
      ["f", "p9", "default"],
      ["  ", "default", "default"],
      // coloured blanks are kept; the default blanks after them are not
      ["  ", "default", "p4"],
    ]);
  });

  test("equal neighbours share a run; rows cover the region; blank rows are empty", async () => {
    const { emulator, feed } = makeEmulator(7, 4);
    await feed("\x1b[32mgreen\x1b[0m\r\n\r\nab");
    const cells = emulator.snapshot({ format: "cells" }).cells!;
    expect(cells.region).toEqual({ row: 0, col: 0, rows: 4, cols: 7 });
    expect(cells.truncated).toBe(false);
    expect(cells.rows).toEqual([[{ col: 0, text: "green", fg: "p2" }], [], [{ col: 0, text: "ab" }], []]);
  });

  test("a region reads part of the screen", async () => {
    const { emulator, feed } = makeEmulator(10, 4);
    await feed("0123456789\r\nabcdefghij\r\nABCDEFGHIJ");
    const cells = emulator.snapshot({ format: "cells", region: { row: 1, col: 3, rows: 2, cols: 4 } }).cells!;
    expect(cells.region).toEqual({ row: 1, col: 3, rows: 2, cols: 4 });
    expect(cells.rows).toEqual([[{ col: 3, text: "defg" }], [{ col: 3, text: "DEFG" }]]);
    // out-of-range regions are clamped to the screen
    expect(
      emulator.snapshot({ format: "cells", region: { row: 3, col: 8, rows: 50, cols: 50 } }).cells!.region,
    ).toEqual({ row: 3, col: 8, rows: 1, cols: 2 });
  });

  test("wide characters: one run, with width when it differs from the text length", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[1ma界b\x1b[0m");
    expect(emulator.snapshot({ format: "cells" }).cells!.rows[0]).toEqual([
      { col: 0, text: "a界b", width: 4, attrs: ["bold"] },
    ]);
  });

  test("a huge screen is read in bounded parts and says so", async () => {
    const { emulator, feed } = makeEmulator(1000, 500);
    await feed("\x1b[500;1Hlast row");
    const first = emulator.snapshot({ format: "cells" }).cells!;
    expect(first.truncated).toBe(true);
    expect(first.region).toEqual({ row: 0, col: 0, rows: 50, cols: 1000 });
    const rest = emulator.snapshot({ format: "cells", region: { row: 450 } }).cells!;
    expect(rest.truncated).toBe(false);
    expect(rest.rows[49]).toEqual([{ col: 0, text: "last row" }]);
  });
});

describe("ansi", () => {
  test("carries SGR and the text, and replays to the same screen", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[1;32mgreen\x1b[0m plain\r\n\x1b[38;2;1;2;3mrgb");
    const snap = emulator.snapshot({ format: "ansi" });
    expect(snap.ansi).toContain("green");
    expect(snap.ansi).toMatch(/\x1b\[[0-9;]*32[0-9;]*m/);
    expect(snap.ansi).toContain("38;2;1;2;3");
    expect(snap.cells).toBeUndefined();
    const { emulator: copy, feed: feedCopy } = makeEmulator();
    await feedCopy(snap.ansi!);
    expect(copy.text()).toBe(emulator.text());
    expect(copy.cursor()).toEqual(emulator.cursor());
  });

  test("on the alternate screen it is the alternate viewport only", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("shell history\r\n\x1b[?1049h\x1b[H\x1b[7mTUI\x1b[0m");
    const ansi = emulator.snapshot({ format: "all" }).ansi!;
    expect(ansi).toContain("TUI");
    expect(ansi).not.toContain("shell history");
    expect(ansi).not.toContain("\x1b[?1049h");
  });

  test("format all has both ansi and cells", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("x");
    const snap = emulator.snapshot({ format: "all" });
    expect(snap.ansi).toBeString();
    expect(snap.cells!.rows).toHaveLength(5);
  });

  test("serializeScreen repaints everything, modes and hidden cursor included", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("before\r\n\x1b[?1049h\x1b[?2004h\x1b[?25lTUI");
    const full = emulator.serializeScreen();
    expect(full).toContain("before");
    expect(full).toContain("\x1b[?1049h");
    expect(full).toContain("TUI");
    expect(full).toContain("\x1b[?2004h");
    expect(full.endsWith("\x1b[?25l")).toBe(true);
    const { emulator: copy, feed: feedCopy } = makeEmulator();
    await feedCopy(full);
    expect(copy.text()).toBe(emulator.text());
    expect(copy.modes()).toMatchObject({ altScreen: true, bracketedPaste: true, cursorVisible: false });
  });
});

describe("scrollback", () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join("\r\n");

  test("off unless asked for", async () => {
    const { emulator, feed } = makeEmulator();
    await feed(lines(10));
    expect(emulator.snapshot().scrollback).toBeUndefined();
  });

  test("every line, with the viewport located in it", async () => {
    const { emulator, feed } = makeEmulator(20, 5);
    await feed(lines(12));
    const sb = emulator.snapshot({ includeScrollback: true }).scrollback!;
    expect(sb.totalLines).toBe(12);
    expect(sb.lines[0]).toBe("line 0");
    expect(sb.lines[11]).toBe("line 11");
    expect([sb.viewportStartLine, sb.viewportEndLine]).toEqual([7, 11]);
    expect(sb.text).toBe(sb.lines.join("\n"));
    expect(sb).toMatchObject({ isAltScreen: false, truncated: false, maxLines: 10_000 });
    expect(sb.normalBuffer).toBeUndefined();
  });

  test("truncation keeps the tail", async () => {
    const { emulator, feed } = makeEmulator(20, 5);
    await feed(lines(50));
    const sb = emulator.snapshot({ includeScrollback: true, maxScrollbackLines: 10 }).scrollback!;
    expect(sb.totalLines).toBe(50);
    expect(sb.truncated).toBe(true);
    expect(sb.maxLines).toBe(10);
    expect(sb.lines).toHaveLength(10);
    expect(sb.lines[0]).toBe("line 40");
    expect(sb.lines[9]).toBe("line 49");
  });

  test("the emulator's scrollback limit bounds the buffer", async () => {
    const { emulator, feed } = makeEmulator(20, 5, 10);
    await feed(lines(100));
    const sb = emulator.snapshot({ includeScrollback: true }).scrollback!;
    expect(sb.totalLines).toBe(15);
    expect(sb.lines.at(-1)).toBe("line 99");
  });

  test("alternate screen: isAltScreen, and normalBuffer holds the shell history", async () => {
    const { emulator, feed } = makeEmulator(20, 5);
    await feed(lines(8) + "\r\n$ vim\x1b[?1049h\x1b[H\x1b[2Jediting");
    const snap = emulator.snapshot({ includeScrollback: true, maxScrollbackLines: 5 });
    expect(snap.lines[0]).toBe("editing");
    const sb = snap.scrollback!;
    expect(sb.isAltScreen).toBe(true);
    expect(sb.totalLines).toBe(5); // the alternate buffer has no scrollback
    expect(sb.lines[0]).toBe("editing");
    expect(sb.normalBuffer).toMatchObject({ totalLines: 9, truncated: true });
    expect(sb.truncated).toBe(false);
    expect(sb.normalBuffer!.lines).toEqual(["line 4", "line 5", "line 6", "line 7", "$ vim"]);
    expect(sb.normalBuffer!.text).toBe("line 4\nline 5\nline 6\nline 7\n$ vim");
    await feed("\x1b[?1049l");
    const back = emulator.snapshot({ includeScrollback: true }).scrollback!;
    expect(back.isAltScreen).toBe(false);
    expect(back.lines.at(-1)).toBe("$ vim");
  });
});
