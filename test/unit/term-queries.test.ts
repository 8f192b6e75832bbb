/** What the emulator answers to the app: xterm.js's own replies and the ones src/term adds. */
import { describe, expect, test } from "bun:test";
import { useEmulators } from "./emulator-harness.ts";
import { OscTerminatorTracker } from "../../src/term/osc-terminator.ts";
import { palette256, parseColorSpec, toXColor } from "../../src/term/theme.ts";
import type { TerminalTheme } from "../../src/term/types.ts";
import pkg from "../../package.json" with { type: "json" };

const newEmulator = useEmulators();
const makeEmulator = (theme?: Partial<TerminalTheme>) => newEmulator({ theme });

const ST = "\x1b\\";
const BEL = "\x07";

describe("replies xterm.js gives itself", () => {
  test("DSR cursor position, DA1, DA2, DECRQM", async () => {
    const { ask } = makeEmulator();
    expect(await ask("abc\x1b[6n")).toBe("\x1b[1;4R");
    expect(await ask("\x1b[c")).toBe("\x1b[?1;2c");
    expect(await ask("\x1b[>c")).toMatch(/^\x1b\[>\d+;\d+;\d+c$/);
    expect(await ask("\x1b[?2026$p")).toBe("\x1b[?2026;2$y");
    expect(await ask("\x1b[?2026h\x1b[?2026$p\x1b[?2026l")).toBe("\x1b[?2026;1$y");
  });

  test("DECRQM for mouse encodings follows the tracked encoding", async () => {
    const { ask } = makeEmulator();
    expect(await ask("\x1b[?1005h\x1b[?1005$p")).toBe("\x1b[?1005;1$y");
    expect(await ask("\x1b[?1006$p")).toBe("\x1b[?1006;2$y");
    expect(await ask("\x1b[?1006h\x1b[?1006$p\x1b[?1005$p")).toBe("\x1b[?1006;1$y\x1b[?1005;2$y");
  });
});

describe("colour queries", () => {
  test("OSC 10/11/12 answer with the default theme, mirroring BEL or ST", async () => {
    const { ask } = makeEmulator();
    expect(await ask(`\x1b]10;?${BEL}`)).toBe(`\x1b]10;rgb:e5e5/e5e5/e5e5${BEL}`);
    expect(await ask(`\x1b]11;?${ST}`)).toBe(`\x1b]11;rgb:0000/0000/0000${ST}`);
    expect(await ask(`\x1b]12;?${BEL}`)).toBe(`\x1b]12;rgb:e5e5/e5e5/e5e5${BEL}`);
  });

  test("a list walks on to the next dynamic colour", async () => {
    const { ask } = makeEmulator({ foreground: "#102030", background: "#fafafa", cursor: "#ff0000" });
    expect(await ask(`\x1b]10;?;?;?${ST}`)).toBe(
      `\x1b]10;rgb:1010/2020/3030${ST}\x1b]11;rgb:fafa/fafa/fafa${ST}\x1b]12;rgb:ffff/0000/0000${ST}`,
    );
  });

  test("OSC 4 palette queries, several pairs in one request", async () => {
    const { ask } = makeEmulator();
    expect(await ask(`\x1b]4;1;?${BEL}`)).toBe(`\x1b]4;1;rgb:cdcd/0000/0000${BEL}`);
    expect(await ask(`\x1b]4;0;?;196;?;232;?${ST}`)).toBe(
      `\x1b]4;0;rgb:0000/0000/0000${ST}\x1b]4;196;rgb:ffff/0000/0000${ST}\x1b]4;232;rgb:0808/0808/0808${ST}`,
    );
    expect(await ask(`\x1b]4;256;?${ST}`)).toBe(""); // out of range: no answer
  });

  test("the configured theme's ANSI colours are reported", async () => {
    const { ask } = makeEmulator({ ansi: ["#111111", "#222222"] });
    expect(await ask(`\x1b]4;1;?;2;?${BEL}`)).toBe(
      `\x1b]4;1;rgb:2222/2222/2222${BEL}\x1b]4;2;rgb:0000/cdcd/0000${BEL}`,
    );
  });

  test("sets, resets and RIS change what later queries see", async () => {
    const { ask } = makeEmulator();
    await ask(`\x1b]11;#336699${ST}\x1b]4;5;rgb:ff/80/00${BEL}`);
    expect(await ask(`\x1b]11;?${ST}`)).toBe(`\x1b]11;rgb:3333/6666/9999${ST}`);
    expect(await ask(`\x1b]4;5;?${ST}`)).toBe(`\x1b]4;5;rgb:ffff/8080/0000${ST}`);
    await ask(`\x1b]111${ST}\x1b]104;5${ST}`);
    expect(await ask(`\x1b]11;?${ST}\x1b]4;5;?${ST}`)).toBe(
      `\x1b]11;rgb:0000/0000/0000${ST}\x1b]4;5;rgb:cdcd/0000/cdcd${ST}`,
    );
    await ask(`\x1b]10;#123456${ST}\x1bc`);
    expect(await ask(`\x1b]10;?${ST}`)).toBe(`\x1b]10;rgb:e5e5/e5e5/e5e5${ST}`);
  });

  test("the terminator is found even when the request is split across writes", async () => {
    const { emulator, ask } = makeEmulator();
    emulator.write("\x1b]1");
    emulator.write("1;");
    // ESC already ends the OSC in xterm.js's parser, so the answer comes before the "\\" of ST.
    expect(await ask("?\x1b")).toBe(`\x1b]11;rgb:0000/0000/0000${ST}`);
    expect(await ask("\\")).toBe("");
    expect(await ask(`\x1b]11;?${BEL}`)).toBe(`\x1b]11;rgb:0000/0000/0000${BEL}`); // no stale ST entry left behind
    emulator.write(new TextEncoder().encode("\x1b]10;"));
    expect(await ask(new TextEncoder().encode(`?${BEL}`))).toBe(`\x1b]10;rgb:e5e5/e5e5/e5e5${BEL}`);
  });
});

describe("XTVERSION", () => {
  test("CSI > q and CSI > 0 q report name and version in a DCS", async () => {
    const { ask } = makeEmulator();
    const expected = `\x1bP>|tui-tester(${pkg.version})${ST}`;
    expect(await ask("\x1b[>q")).toBe(expected);
    expect(await ask("\x1b[>0q")).toBe(expected);
  });
});

describe("kitty keyboard flags", () => {
  test("query, push, set (1/2/3) and pop", async () => {
    const { emulator, ask } = makeEmulator();
    expect(await ask("\x1b[?u")).toBe("\x1b[?0u");
    await ask("\x1b[>1u");
    expect(emulator.keyboardModes().kittyFlags).toBe(1);
    await ask("\x1b[>5u");
    expect(await ask("\x1b[?u")).toBe("\x1b[?5u");
    await ask("\x1b[=2;2u");
    expect(emulator.modes().kittyKeyboardFlags).toBe(7);
    await ask("\x1b[=4;3u");
    expect(emulator.modes().kittyKeyboardFlags).toBe(3);
    await ask("\x1b[=8u"); // mode defaults to 1 (set)
    expect(emulator.modes().kittyKeyboardFlags).toBe(8);
    await ask("\x1b[<u");
    expect(emulator.modes().kittyKeyboardFlags).toBe(1);
    await ask("\x1b[<5u"); // popping past the bottom resets
    expect(await ask("\x1b[?u")).toBe("\x1b[?0u");
  });

  test("set on an empty stack changes the current flags", async () => {
    const { emulator, ask } = makeEmulator();
    await ask("\x1b[=3;1u");
    expect(emulator.modes().kittyKeyboardFlags).toBe(3);
    await ask("\x1b[=0;1u");
    expect(emulator.modes().kittyKeyboardFlags).toBe(0);
  });

  test("main and alternate screens keep separate stacks", async () => {
    const { emulator, ask } = makeEmulator();
    await ask("\x1b[>1u\x1b[?1049h");
    expect(emulator.modes().kittyKeyboardFlags).toBe(0);
    await ask("\x1b[>31u");
    expect(await ask("\x1b[?u")).toBe("\x1b[?31u");
    await ask("\x1b[?1049l");
    expect(emulator.modes().kittyKeyboardFlags).toBe(1);
    await ask("\x1b[?1049h");
    expect(emulator.modes().kittyKeyboardFlags).toBe(31);
    await ask("\x1bc"); // RIS empties both
    expect(emulator.modes().kittyKeyboardFlags).toBe(0);
  });

  test("plain CSI u is still restore-cursor (SCORC)", async () => {
    const { emulator, ask } = makeEmulator();
    await ask("\x1b[2;3H\x1b[s\x1b[5;10Hx\x1b[>1u\x1b[u");
    expect(emulator.cursor()).toMatchObject({ row: 1, col: 2 });
    expect(emulator.modes().kittyKeyboardFlags).toBe(1);
  });
});

describe("helpers", () => {
  test("colour specs", () => {
    expect(parseColorSpec("rgb:f/0/8")).toBe("#ff0088");
    expect(parseColorSpec("rgb:ffff/0000/8080")).toBe("#ff0080");
    expect(parseColorSpec("#f80")).toBe("#f08000");
    expect(parseColorSpec("#ABCDEF")).toBe("#abcdef");
    expect(parseColorSpec("#123456789abc")).toBe("#12569a");
    expect(parseColorSpec("red")).toBeNull();
    expect(toXColor("#12abEF")).toBe("rgb:1212/abab/efef");
  });

  test("the 256-colour palette", () => {
    const p = palette256();
    expect(p).toHaveLength(256);
    expect([p[7], p[16], p[21], p[196], p[231], p[232], p[255]]).toEqual([
      "#e5e5e5",
      "#000000",
      "#0000ff",
      "#ff0000",
      "#ffffff",
      "#080808",
      "#eeeeee",
    ]);
  });

  test("terminator tracker: ESC followed by anything else still ends the OSC with ST", () => {
    const t = new OscTerminatorTracker(new Set([10, 11]));
    t.scan("\x1b]10;?\x1b]11;?\x07\x1b]2;title\x07\x1b]11;?\x18");
    expect(t.take(10)).toBe("\x1b\\");
    expect(t.take(11)).toBe("\x07");
    expect(t.take(11)).toBe("\x1b\\"); // the CAN-aborted one was never recorded: default
  });
});
