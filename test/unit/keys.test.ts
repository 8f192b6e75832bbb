/**
 * Legacy (xterm) key encoding, bit-exact against the README "Key encoding reference" tables
 * and xterm ctlseqs. Expected values are written out as hex so a table typo in src cannot
 * make its own test pass.
 */
import { describe, expect, test } from "bun:test";
import { encodeKey, type KeyboardModes, LEGACY_MODES, parseKey } from "../../src/keys/index.ts";

const hex = (s: string): string => Buffer.from(s, "utf8").toString("hex");
const enc = (key: string, modes: KeyboardModes = LEGACY_MODES): string => hex(encodeKey(parseKey(key), modes));
const APP_CURSOR: KeyboardModes = { applicationCursorKeys: true, applicationKeypad: false, kittyFlags: 0 };

function table(rows: [string, string][], modes?: KeyboardModes): void {
  test.each(rows)("%s -> %s", (key, bytes) => {
    expect(enc(key, modes)).toBe(bytes);
  });
}

describe("README: printable characters", () => {
  table([
    ["a", "61"],
    ["A", "41"],
    ["shift+a", "41"],
    ["ctrl+shift+a", "01"],
    ["alt+a", "1b61"],
    ["alt+shift+a", "1b41"],
    ["alt+ctrl+a", "1b01"],
    ["shift+1", "21"],
    ["ctrl+space", "00"],
    ["ctrl+@", "00"],
    ["ctrl+[", "1b"],
  ]);

  test("ctrl+a ... ctrl+z -> 0x01 ... 0x1a", () => {
    for (let i = 0; i < 26; i++) {
      const letter = String.fromCharCode(0x61 + i);
      expect(enc(`ctrl+${letter}`)).toBe((i + 1).toString(16).padStart(2, "0"));
      expect(enc(`ctrl+shift+${letter}`)).toBe((i + 1).toString(16).padStart(2, "0"));
    }
  });
});

describe("README: named keys without modifiers", () => {
  table([
    ["Enter", "0d"],
    ["Tab", "09"],
    ["Shift+Tab", "1b5b5a"],
    ["Escape", "1b"],
    ["Backspace", "7f"],
    ["Space", "20"],
    ["ArrowUp", "1b5b41"],
    ["ArrowDown", "1b5b42"],
    ["ArrowRight", "1b5b43"],
    ["ArrowLeft", "1b5b44"],
    ["Home", "1b5b48"],
    ["End", "1b5b46"],
    ["Insert", "1b5b327e"],
    ["Delete", "1b5b337e"],
    ["PageUp", "1b5b357e"],
    ["PageDown", "1b5b367e"],
  ]);
});

describe("README: with modifiers and function keys", () => {
  table([
    ["ctrl+shift+up", "1b5b313b3641"],
    ["alt+PageUp", "1b5b353b337e"],
    ["F1", "1b4f50"],
    ["F2", "1b4f51"],
    ["F3", "1b4f52"],
    ["F4", "1b4f53"],
    ["Shift+F1", "1b5b313b3250"],
    ["F5", "1b5b31357e"],
    ["F6", "1b5b31377e"],
    ["F11", "1b5b32337e"],
    ["F12", "1b5b32347e"],
    ["Ctrl+F5", "1b5b31353b357e"],
  ]);
});

/** All 16 combinations of shift/alt/ctrl/meta with the xterm parameter M = 1 + 1s + 2a + 4c + 8m. */
const COMBOS: { prefix: string; m: number }[] = Array.from({ length: 16 }, (_, bits) => {
  const names = [bits & 1 && "shift", bits & 2 && "alt", bits & 4 && "ctrl", bits & 8 && "meta"].filter(Boolean);
  return { prefix: names.map((n) => `${n}+`).join(""), m: 1 + bits };
});

describe("modifier bitfield, all 16 combinations", () => {
  test("the parameter values are 1..16 exactly once", () => {
    expect(COMBOS.map((c) => c.m).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(COMBOS.find((c) => c.prefix === "shift+alt+ctrl+meta+")?.m).toBe(16);
  });
  test.each(COMBOS)("ArrowUp with $prefix -> CSI 1;$m A", ({ prefix, m }) => {
    expect(enc(`${prefix}up`)).toBe(m === 1 ? "1b5b41" : `1b5b313b${hex(String(m))}41`);
  });
  test.each(COMBOS)("PageUp with $prefix -> CSI 5;$m ~", ({ prefix, m }) => {
    expect(enc(`${prefix}pageup`)).toBe(m === 1 ? "1b5b357e" : `1b5b353b${hex(String(m))}7e`);
  });
  test.each(COMBOS)("F5 with $prefix -> CSI 15;$m ~", ({ prefix, m }) => {
    expect(enc(`${prefix}f5`)).toBe(m === 1 ? "1b5b31357e" : `1b5b31353b${hex(String(m))}7e`);
  });
  test("spot checks written out in full", () => {
    expect(encodeKey(parseKey("meta+up"), LEGACY_MODES)).toBe("\x1b[1;9A");
    expect(encodeKey(parseKey("ctrl+alt+shift+meta+pgup"), LEGACY_MODES)).toBe("\x1b[5;16~");
    expect(encodeKey(parseKey("alt+ctrl+F5"), LEGACY_MODES)).toBe("\x1b[15;7~");
    expect(encodeKey(parseKey("shift+meta+end"), LEGACY_MODES)).toBe("\x1b[1;10F");
  });
});

describe("function keys F1-F24", () => {
  // xterm ctlseqs (F1-F12) and xterm input.c decfuncvalue() (F13-F24).
  const tildeCodes: Record<number, number> = {
    5: 15,
    6: 17,
    7: 18,
    8: 19,
    9: 20,
    10: 21,
    11: 23,
    12: 24,
    13: 25,
    14: 26,
    15: 28,
    16: 29,
    17: 31,
    18: 32,
    19: 33,
    20: 34,
    21: 42,
    22: 43,
    23: 44,
    24: 45,
  };
  const ss3Finals: Record<number, string> = { 1: "P", 2: "Q", 3: "R", 4: "S" };
  const fkeys = Array.from({ length: 24 }, (_, i) => i + 1);

  test.each(fkeys)("F%i unmodified and with ctrl", (n) => {
    const final = ss3Finals[n];
    if (final !== undefined) {
      expect(encodeKey(parseKey(`F${n}`), LEGACY_MODES)).toBe(`\x1bO${final}`);
      expect(encodeKey(parseKey(`ctrl+F${n}`), LEGACY_MODES)).toBe(`\x1b[1;5${final}`);
    } else {
      expect(encodeKey(parseKey(`F${n}`), LEGACY_MODES)).toBe(`\x1b[${tildeCodes[n]}~`);
      expect(encodeKey(parseKey(`ctrl+F${n}`), LEGACY_MODES)).toBe(`\x1b[${tildeCodes[n]};5~`);
    }
  });
  table([
    ["F13", "1b5b32357e"],
    ["F16", "1b5b32397e"],
    ["F20", "1b5b33347e"],
    ["F21", "1b5b34327e"],
    ["F24", "1b5b34357e"],
    ["shift+F24", "1b5b34353b327e"],
  ]);
});

describe("application cursor keys (DECCKM)", () => {
  table(
    [
      ["up", "1b4f41"],
      ["down", "1b4f42"],
      ["right", "1b4f43"],
      ["left", "1b4f44"],
      ["home", "1b4f48"],
      ["end", "1b4f46"],
      // Modified cursor keys keep the CSI 1;M form.
      ["ctrl+up", "1b5b313b3541"],
      ["shift+home", "1b5b313b3248"],
      ["alt+end", "1b5b313b3346"],
      // Other keys are unaffected.
      ["pageup", "1b5b357e"],
      ["insert", "1b5b327e"],
      ["F1", "1b4f50"],
      ["Enter", "0d"],
    ],
    APP_CURSOR,
  );

  test("the same keys use CSI when DECCKM is off", () => {
    expect(enc("up")).toBe("1b5b41");
    expect(enc("home")).toBe("1b5b48");
  });
});

describe("control characters (X11 XLookupString + xterm)", () => {
  table([
    ["ctrl+2", "00"],
    ["ctrl+3", "1b"],
    ["ctrl+4", "1c"],
    ["ctrl+5", "1d"],
    ["ctrl+6", "1e"],
    ["ctrl+7", "1f"],
    ["ctrl+8", "7f"],
    ["ctrl+\\", "1c"],
    ["ctrl+]", "1d"],
    ["ctrl+^", "1e"],
    ["ctrl+_", "1f"],
    ["ctrl+?", "7f"],
    ["ctrl+/", "1f"],
    ["ctrl+shift+/", "7f"],
    ["ctrl+shift+2", "00"],
    ["ctrl+shift+6", "1e"],
    ["ctrl+shift+-", "1f"],
    ["ctrl+shift+space", "00"],
    ["ctrl+A", "01"],
    ["ctrl+1", "31"],
    ["ctrl+.", "2e"],
    ["ctrl+alt+[", "1b1b"],
  ]);
});

describe("shift on characters uses the US layout", () => {
  const pairs: [string, string][] = [
    ["1", "!"],
    ["2", "@"],
    ["3", "#"],
    ["4", "$"],
    ["5", "%"],
    ["6", "^"],
    ["7", "&"],
    ["8", "*"],
    ["9", "("],
    ["0", ")"],
    ["`", "~"],
    ["-", "_"],
    ["=", "+"],
    ["[", "{"],
    ["]", "}"],
    ["\\", "|"],
    [";", ":"],
    ["'", '"'],
    [",", "<"],
    [".", ">"],
    ["/", "?"],
  ];
  test.each(pairs)("shift+%s -> %s", (base, shifted) => {
    expect(encodeKey(parseKey({ key: base, shift: true }), LEGACY_MODES)).toBe(shifted);
    expect(encodeKey(parseKey(shifted), LEGACY_MODES)).toBe(shifted);
  });
  table([
    ["shift+/", "3f"],
    ["shift+!", "21"],
    ["shift+space", "20"],
    ["alt+shift+1", "1b21"],
  ]);
});

describe("named keys with modifiers", () => {
  table([
    ["alt+enter", "1b0d"],
    ["meta+enter", "1b0d"],
    ["ctrl+enter", "0d"],
    ["shift+enter", "0d"],
    ["ctrl+backspace", "08"],
    ["alt+backspace", "1b7f"],
    ["ctrl+alt+backspace", "1b08"],
    ["shift+backspace", "7f"],
    ["alt+tab", "1b09"],
    ["ctrl+tab", "09"],
    ["ctrl+shift+tab", "1b5b5a"],
    ["alt+shift+tab", "1b1b5b5a"],
    ["alt+escape", "1b1b"],
    ["ctrl+escape", "1b"],
    ["alt+space", "1b20"],
    ["meta+a", "1b61"],
    ["meta+alt+a", "1b61"],
    ["ctrl+meta+c", "1b03"],
    ["ctrl+insert", "1b5b323b357e"],
    ["shift+delete", "1b5b333b327e"],
    ["ctrl+pagedown", "1b5b363b357e"],
    ["alt+left", "1b5b313b3344"],
  ]);
});

describe("non-ASCII characters", () => {
  test("are returned as the JS character for the PTY layer to UTF-8-encode", () => {
    expect(encodeKey(parseKey("é"), LEGACY_MODES)).toBe("é");
    expect(encodeKey(parseKey("alt+é"), LEGACY_MODES)).toBe("\x1bé");
    expect(encodeKey(parseKey("shift+é"), LEGACY_MODES)).toBe("É");
    expect(encodeKey(parseKey("ctrl+é"), LEGACY_MODES)).toBe("é");
    expect(encodeKey(parseKey("😀"), LEGACY_MODES)).toBe("😀");
  });
  test("every other key encodes to code units below 0x80", () => {
    const keys = ["ctrl+shift+up", "F24", "alt+z", "ctrl+?", "shift+tab", "meta+F12", "ctrl+alt+shift+meta+delete"];
    for (const key of keys) {
      for (const ch of encodeKey(parseKey(key), LEGACY_MODES)) expect(ch.charCodeAt(0)).toBeLessThan(0x80);
    }
  });
});
