/** The echo of typed text, found by position: EchoTracker (what was typed) over echo-cells (where it shows). */
import { describe, expect, test } from "bun:test";
import { HIDDEN_CHAR } from "../../src/session/baseline.ts";
import { EchoTracker, MAX_ECHO_SEGMENTS } from "../../src/session/echo.ts";
import { applyMask } from "../../src/term/echo-cells.ts";
import type { Emulator } from "../../src/term/emulator.ts";
import { useEmulators } from "./emulator-harness.ts";

const makeEmulator = useEmulators();

/** An EchoTracker over a bare emulator: `type` is an input (its start, then its bytes). */
function tracked(emulator: Emulator) {
  const starts = new Set<() => void>();
  const inputs = new Set<(b: Uint8Array) => void>();
  const host = {
    emulator,
    running: true,
    onInputStart: (l: () => void) => (starts.add(l), () => starts.delete(l)),
    onInput: (l: (b: Uint8Array) => void) => (inputs.add(l), () => inputs.delete(l)),
  };
  const tracker = new EchoTracker(host);
  const type = (text: string) => {
    for (const l of starts) l();
    for (const l of inputs) l(new TextEncoder().encode(text));
  };
  const visible = () => {
    const lines = emulator.viewport().lines;
    return applyMask(lines, tracker.mask(lines), "#");
  };
  return { tracker, type, visible, host };
}

describe("echo cells", () => {
  test("the typed line is hidden where it was echoed; the same text as output is not", async () => {
    const { emulator, feed } = makeEmulator({ cols: 30, rows: 5 });
    const t = tracked(emulator);
    await feed("$ ");
    t.type("echo hi\r");
    await feed("echo hi\r\nhi\r\n$ ");
    expect(t.visible().slice(0, 3)).toEqual(["$ #### ##", "hi", "$"]);
  });

  test("a line that wraps, Backspace edits, and text after an Enter located after the first echo", async () => {
    const { emulator, feed } = makeEmulator({ cols: 10, rows: 6 });
    const t = tracked(emulator);
    await feed("$ ");
    t.type("abcdefghiX\x7fjk\rlast\r");
    await feed("abcdefghijk\r\nout last\r\n$ last\r\n");
    expect(t.visible().slice(0, 4)).toEqual(["$ ########", "###", "out last", "$ ####"]);
  });

  test("output that overwrote the echo's cells (a clear) is output", async () => {
    const { emulator, feed } = makeEmulator({ cols: 30, rows: 5 });
    const t = tracked(emulator);
    await feed("$ ");
    t.type("clear; echo DONE\r");
    await feed("clear; echo DONE\r\n\x1b[H\x1b[2JDONE\r\n$ ");
    expect(t.visible()[0]).toBe("DONE");
  });

  test("the echo follows its line while the screen scrolls and the scrollback trims", async () => {
    const { emulator, feed } = makeEmulator({ cols: 20, rows: 4, scrollback: 3 });
    const t = tracked(emulator);
    await feed("$ ");
    t.type("run MARK\r");
    await feed("run MARK\r\n1\r\n2\r\n");
    expect(t.visible()).toEqual(["$ ### ####", "1", "2", ""]);
    await feed("3\r\n4\r\n5\r\n6\r\n"); // the echo line scrolls into the 3-line scrollback, then out of it
    await feed("\x1b[A\x1b[A\x1b[A");
    expect(t.visible().join("\n")).not.toContain("#");
    expect(emulator.viewport().lines.join("\n")).not.toContain("MARK");
  });

  test("the alternate screen has no echo of main-screen typing", async () => {
    const { emulator, feed } = makeEmulator({ cols: 20, rows: 4 });
    const t = tracked(emulator);
    await feed("$ ");
    t.type("vim MARK\r");
    await feed("vim MARK\r\n\x1b[?1049h\x1b[H\x1b[2J$ vim MARK");
    expect(t.visible()[0]).toBe("$ vim MARK");
  });

  test("cursor keys end the line: text after them is located, not assumed to follow", async () => {
    const { emulator, feed } = makeEmulator({ cols: 20, rows: 4 });
    const t = tracked(emulator);
    await feed("$ ");
    t.type("ab\x1b[Dc");
    await feed("ab\x08cb\x08");
    // "ab" is where it was typed; "c" was inserted before "b" and found after the "ab" echo's start
    expect(t.visible()[0]!.startsWith("$ #")).toBe(true);
  });

  test("wide characters take two cells", async () => {
    const { emulator, feed } = makeEmulator({ cols: 20, rows: 4 });
    const t = tracked(emulator);
    await feed("$ ");
    t.type("日本 X\r");
    await feed("日本 X\r\nX\r\n");
    expect(t.visible().slice(0, 2)).toEqual(["$ ## #", "X"]);
  });

  test("at most MAX_ECHO_SEGMENTS typed lines are kept", async () => {
    const { emulator, feed } = makeEmulator({ cols: 20, rows: 4 });
    const t = tracked(emulator);
    for (let i = 0; i < MAX_ECHO_SEGMENTS * 3; i++) t.type(`x${i}\r`);
    await feed("");
    expect((t.tracker as unknown as { segments: unknown[] }).segments.length).toBeLessThanOrEqual(MAX_ECHO_SEGMENTS);
  });

  test("after exit the last live mask serves the kept screen only while it is the same", async () => {
    const { emulator, feed } = makeEmulator({ cols: 20, rows: 3 });
    const t = tracked(emulator);
    await feed("$ ");
    t.type("say MARK\r");
    await feed("say MARK\r\n");
    const lines = emulator.viewport().lines;
    const live = t.tracker.mask(lines);
    (t.host as { running: boolean }).running = false;
    expect(t.tracker.mask(lines)).toBe(live);
    expect(t.tracker.mask(["other", "", ""]).size).toBe(0);
    expect(applyMask(lines, live, HIDDEN_CHAR)[0]).toBe(`$ ${HIDDEN_CHAR.repeat(3)} ${HIDDEN_CHAR.repeat(4)}`);
  });
});
