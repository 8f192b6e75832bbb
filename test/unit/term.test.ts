/** Emulator basics without a PTY: the terminal is fed strings and read back. */
import { describe, expect, test } from "bun:test";
import { useEmulators } from "./emulator-harness.ts";
import { Emulator } from "../../src/term/emulator.ts";

const newEmulator = useEmulators();
const makeEmulator = (cols = 20, rows = 5, scrollback?: number) => newEmulator({ cols, rows, scrollback });

describe("text and cursor", () => {
  test("written text shows on the screen with the cursor after it", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("hello\r\nworld  ");
    expect(emulator.text()).toBe("hello\nworld\n\n\n");
    expect(emulator.cursor()).toEqual({ row: 1, col: 7, visible: true });
    const snap = emulator.snapshot();
    expect(snap.lines).toEqual(["hello", "world", "", "", ""]);
    expect(snap.cols).toBe(20);
    expect(snap.rows).toBe(5);
    expect(snap.ansi).toBeUndefined();
    expect(snap.cells).toBeUndefined();
  });

  test("a cursor left in pending-wrap is reported on the last column", async () => {
    const { emulator, feed } = makeEmulator(5, 2);
    await feed("abcde");
    expect(emulator.cursor()).toMatchObject({ row: 0, col: 4 });
  });

  test("DECTCEM hides and shows the cursor", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[?25l");
    expect(emulator.cursor().visible).toBe(false);
    expect(emulator.modes().cursorVisible).toBe(false);
    await feed("\x1b[?25h");
    expect(emulator.cursor().visible).toBe(true);
    await feed("\x1b[?25l\x1bc"); // RIS shows it again
    expect(emulator.cursor().visible).toBe(true);
  });

  test("wide characters: text reads naturally, cells count the columns they cover", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("a界b");
    expect(emulator.text().split("\n")[0]).toBe("a界b");
    expect(emulator.snapshot({ format: "cells" }).cells!.rows[0]).toEqual([{ col: 0, text: "a界b", width: 4 }]);
  });

  test("resize changes the grid", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("x");
    emulator.resize(30, 8);
    const snap = emulator.snapshot();
    expect([snap.cols, snap.rows, snap.lines.length]).toEqual([30, 8, 8]);
  });
});

describe("write bookkeeping", () => {
  test("flushed() resolves at once when nothing is pending", async () => {
    const { emulator } = makeEmulator();
    let done = false;
    void emulator.flushed().then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(true);
  });

  test("flushed() after a 1 MB write sees all of it parsed", async () => {
    const { emulator } = makeEmulator(80, 24);
    const line = "x".repeat(79) + "\r\n";
    const count = Math.ceil((1024 * 1024) / line.length);
    emulator.write(line.repeat(count - 1) + "THE END");
    await emulator.flushed();
    expect(emulator.text()).toContain("THE END");
  });

  test("flushed() waits only for what was written before it", async () => {
    const { emulator } = makeEmulator();
    emulator.write("first");
    const first = emulator.flushed();
    emulator.write("\r\nsecond");
    await first;
    expect(emulator.text()).toContain("first");
  });

  test("onParsed fires per parsed chunk and unsubscribes", async () => {
    const { emulator, feed } = makeEmulator();
    let calls = 0;
    const off = emulator.onParsed(() => calls++);
    emulator.write("a");
    emulator.write(new TextEncoder().encode("b"));
    await emulator.flushed();
    expect(calls).toBe(2);
    off();
    await feed("c");
    expect(calls).toBe(2);
    expect(emulator.text().startsWith("abc")).toBe(true);
  });

  test("a throwing onParsed listener does not stop the others", async () => {
    const { emulator, feed } = makeEmulator();
    let ok = 0;
    emulator.onParsed(() => {
      throw new Error("boom");
    });
    emulator.onParsed(() => ok++);
    await feed("z");
    expect(ok).toBe(1);
  });

  test("dispose releases pending flush waiters", async () => {
    const { emulator } = makeEmulator();
    emulator.write("x".repeat(100_000));
    const pending = emulator.flushed();
    emulator.dispose();
    await pending;
  });
});

describe("modes", () => {
  test("defaults", () => {
    const { emulator } = makeEmulator();
    expect(emulator.modes()).toEqual({
      applicationCursorKeys: false,
      applicationKeypad: false,
      bracketedPaste: false,
      mouseTracking: "none",
      mouseEncoding: "default",
      kittyKeyboardFlags: 0,
      altScreen: false,
      synchronizedOutput: false,
      cursorVisible: true,
      focusEvents: false,
    });
    expect(emulator.keyboardModes()).toEqual({ applicationCursorKeys: false, applicationKeypad: false, kittyFlags: 0 });
  });

  test("DECCKM, DECKPAM, bracketed paste, focus, alt screen", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[?1h\x1b=\x1b[?2004h\x1b[?1004h\x1b[?1049h");
    expect(emulator.modes()).toMatchObject({
      applicationCursorKeys: true,
      applicationKeypad: true,
      bracketedPaste: true,
      focusEvents: true,
      altScreen: true,
    });
    expect(emulator.keyboardModes()).toMatchObject({ applicationCursorKeys: true, applicationKeypad: true });
    await feed("\x1b[?1l\x1b>\x1b[?2004l\x1b[?1004l\x1b[?1049l");
    expect(emulator.modes()).toMatchObject({
      applicationCursorKeys: false,
      applicationKeypad: false,
      bracketedPaste: false,
      focusEvents: false,
      altScreen: false,
    });
  });

  test("mouse tracking modes and encodings", async () => {
    const { emulator, feed } = makeEmulator();
    for (const [seq, mode] of [
      ["\x1b[?9h", "x10"],
      ["\x1b[?1000h", "vt200"],
      ["\x1b[?1002h", "drag"],
      ["\x1b[?1003h", "any"],
    ] as const) {
      await feed(seq);
      expect(emulator.modes().mouseTracking).toBe(mode);
    }
    await feed("\x1b[?1003l");
    expect(emulator.modes().mouseTracking).toBe("none");
    for (const [n, encoding] of [
      [1006, "sgr"],
      [1016, "sgr-pixels"],
      [1005, "utf8"],
      [1015, "urxvt"],
    ] as const) {
      await feed(`\x1b[?1000;${n}h`);
      expect(emulator.modes()).toMatchObject({ mouseTracking: "vt200", mouseEncoding: encoding });
      await feed(`\x1b[?${n}l`);
      expect(emulator.modes().mouseEncoding).toBe("default");
    }
  });

  test("a repaint from serializeScreen keeps the mouse tracking mode, its encoding and a hidden cursor", async () => {
    const { emulator, feed } = makeEmulator();
    for (const [n, encoding] of [
      [1006, "sgr"],
      [1016, "sgr-pixels"],
      [1005, "utf8"],
      [1015, "urxvt"],
    ] as const) {
      await feed(`\x1b[?1002;${n}h\x1b[?25l`);
      const copy = Emulator.restore(emulator.serializeScreen(), { cols: 20, rows: 5, reply: () => undefined });
      expect(copy.modes()).toMatchObject({ mouseTracking: "drag", mouseEncoding: encoding });
      expect(copy.cursor().visible).toBe(false);
      copy.dispose();
      await feed(`\x1b[?${n}l\x1b[?25h`);
    }
  });

  test("resetting an encoding that is not active keeps the active one (1005/1015)", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[?1005h\x1b[?1015l");
    expect(emulator.modes().mouseEncoding).toBe("utf8");
  });

  test("synchronized output is reported while held", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[?2026h");
    expect(emulator.modes().synchronizedOutput).toBe(true);
    expect(emulator.syncHeld).toBe(true);
    expect(emulator.syncHeldSince).toBeNumber();
    await feed("\x1b[?2026l");
    expect(emulator.modes().synchronizedOutput).toBe(false);
    expect(emulator.syncHeldSince).toBeNull();
  });

  test("DECSTR and RIS end a synchronized update", async () => {
    const { emulator, feed } = makeEmulator();
    let released = 0;
    emulator.onSyncRelease(() => released++);
    await feed("\x1b[?2026h\x1b[!p");
    expect(emulator.syncHeld).toBe(false);
    await feed("\x1b[?2026h\x1bc");
    expect(emulator.syncHeld).toBe(false);
    expect(released).toBe(2);
  });
});

test("serializeScreen caps the history it sends for a repaint", async () => {
  const { emulator, feed } = makeEmulator(20, 5, 1000);
  await feed(Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\r\n"));
  const capped = emulator.serializeScreen(10);
  expect(capped).toContain("line 99");
  expect(capped).toContain("line 90");
  expect(capped).not.toContain("line 50");
  expect(emulator.serializeScreen()).toContain("line 50");
});
