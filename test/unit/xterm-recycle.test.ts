/** The copyFrom fix in src/term/xterm-recycle.ts: installed, same result as xterm.js's own, no garbage. */
import { describe, expect, test } from "bun:test";
import { Terminal } from "@xterm/headless";
import { installLineRecycling, originalCopyFrom, type BufferLineShape } from "../../src/term/xterm-recycle.ts";
import { useEmulators } from "./emulator-harness.ts";

const makeEmulator = useEmulators();

type Line = BufferLineShape & { clone(): Line };

function linesOf(terminal: Terminal): { lines: { get(i: number): Line; length: number } } {
  return (
    terminal as unknown as {
      _core: { _bufferService: { buffer: { lines: { get(i: number): Line; length: number } } } };
    }
  )._core._bufferService.buffer;
}

function write(terminal: Terminal, data: string): Promise<void> {
  return new Promise((resolve) => terminal.write(data, resolve));
}

/** Lines with combining marks, wide emoji, curly coloured underlines and a wrapped row. */
const RICH =
  "e\u0301a\u0308 \u{1F600}\u200d\u{1F4BB} \x1b[4:3m\x1b[58;2;255;0;0mwavy\x1b[0m plain\r\n" +
  "x".repeat(30) +
  "\r\nlast";

describe("BufferLine.copyFrom recycling", () => {
  test("the fix is installed on the xterm.js in node_modules (a refused install means the shape changed)", () => {
    makeEmulator(); // an Emulator installs it
    const terminal = new Terminal({ cols: 20, rows: 5, allowProposedApi: true });
    expect(installLineRecycling(terminal)).toBe(true);
    expect(originalCopyFrom).toBeFunction();
    expect(linesOf(terminal).lines.get(0).copyFrom).not.toBe(originalCopyFrom!);
    terminal.dispose();
  });

  test("copies exactly what xterm.js's own copyFrom copies, for every pair of rich and blank lines", async () => {
    makeEmulator();
    const terminal = new Terminal({ cols: 20, rows: 6, allowProposedApi: true });
    await write(terminal, RICH);
    const buffer = linesOf(terminal);
    const sources = Array.from({ length: buffer.lines.length }, (_, i) => buffer.lines.get(i));
    expect(sources.some((l) => Object.keys(l._combined).length > 0)).toBe(true);
    expect(sources.some((l) => Object.keys(l._extendedAttrs).length > 0)).toBe(true);
    expect(sources.some((l) => l.isWrapped)).toBe(true);
    for (const target of sources) {
      for (const source of sources) {
        const viaOriginal = target.clone();
        const viaFix = target.clone();
        originalCopyFrom!.call(viaOriginal, source);
        viaFix.copyFrom(source);
        expect(Array.from(viaFix._data)).toEqual(Array.from(viaOriginal._data));
        expect(viaFix._combined).toEqual(viaOriginal._combined);
        expect(viaFix._extendedAttrs).toEqual(viaOriginal._extendedAttrs);
        expect(viaFix.length).toBe(viaOriginal.length);
        expect(viaFix.isWrapped).toBe(viaOriginal.isWrapped);
        // Never shares a record with the source, as the original never does.
        expect(viaFix._combined).not.toBe(source._combined);
        expect(viaFix._extendedAttrs).not.toBe(source._extendedAttrs);
      }
    }
    terminal.dispose();
  });

  test("a recycled blank line keeps its own records instead of allocating new ones", () => {
    makeEmulator();
    const terminal = new Terminal({ cols: 20, rows: 5, allowProposedApi: true });
    const [a, b] = [linesOf(terminal).lines.get(0), linesOf(terminal).lines.get(1)];
    const combined = a._combined;
    const attrs = a._extendedAttrs;
    a.copyFrom(b);
    expect(a._combined).toBe(combined);
    expect(a._extendedAttrs).toBe(attrs);
    terminal.dispose();
  });

  test("a full scrollback keeps rich content correct while lines are recycled", async () => {
    const { emulator, feed } = makeEmulator({ cols: 20, rows: 4, scrollback: 3 });
    for (let i = 0; i < 40; i++) await feed(`${i} e\u0301 \u{1F600} \x1b[4:3m\x1b[58;5;1mu\x1b[0m\r\n`);
    await feed("end");
    const text = emulator.snapshot().text;
    expect(text.split("\n").slice(0, 4)).toEqual([37, 38, 39].map((n) => `${n} e\u0301 \u{1F600} u`).concat("end"));
  });
});
