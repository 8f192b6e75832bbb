/** Kitty keyboard protocol encoding (press events), per https://sw.kovidgoyal.net/kitty/keyboard-protocol/. */
import { describe, expect, test } from "bun:test";
import { encodeKey, KITTY_FLAGS, type KeyboardModes, keyNames, LEGACY_MODES, parseKey } from "../../src/keys/index.ts";

const modes = (kittyFlags: number, applicationCursorKeys = false): KeyboardModes => ({
  applicationCursorKeys,
  applicationKeypad: false,
  kittyFlags,
});
const enc = (key: string, flags: number, appCursor = false): string =>
  encodeKey(parseKey(key), modes(flags, appCursor));
const CSI = "\x1b[";

function table(flags: number, rows: [string, string][]): void {
  test.each(rows)(`%s (flags ${flags})`, (key, bytes) => {
    expect(enc(key, flags)).toBe(bytes);
  });
}

describe("flag 1: disambiguate escape codes", () => {
  table(KITTY_FLAGS.disambiguate, [
    ["ctrl+a", `${CSI}97;5u`],
    ["ctrl+shift+a", `${CSI}97;6u`],
    ["ctrl+A", `${CSI}97;6u`],
    ["ctrl+c", `${CSI}99;5u`],
    ["ctrl+i", `${CSI}105;5u`],
    ["alt+a", `${CSI}97;3u`],
    ["alt+shift+a", `${CSI}97;4u`],
    ["ctrl+alt+a", `${CSI}97;7u`],
    ["meta+a", `${CSI}97;9u`],
    ["ctrl+space", `${CSI}32;5u`],
    ["ctrl+[", `${CSI}91;5u`],
    ["ctrl+shift+1", `${CSI}49;6u`],
    ["ctrl+!", `${CSI}49;6u`],
    ["Escape", `${CSI}27u`],
    ["alt+escape", `${CSI}27;3u`],
    ["shift+enter", `${CSI}13;2u`],
    ["ctrl+enter", `${CSI}13;5u`],
    ["alt+enter", `${CSI}13;3u`],
    ["shift+tab", `${CSI}9;2u`],
    ["ctrl+backspace", `${CSI}127;5u`],
    // Unmodified Enter/Tab/Backspace stay legacy so a shell stays usable after a crash.
    ["Enter", "\r"],
    ["Tab", "\t"],
    ["Backspace", "\x7f"],
    // Text stays plain text.
    ["a", "a"],
    ["A", "A"],
    ["shift+a", "A"],
    ["shift+1", "!"],
    ["!", "!"],
    ["space", " "],
    ["é", "é"],
    // Functional keys.
    ["up", `${CSI}A`],
    ["ctrl+up", `${CSI}1;5A`],
    ["ctrl+shift+up", `${CSI}1;6A`],
    ["home", `${CSI}H`],
    ["shift+end", `${CSI}1;2F`],
    ["insert", `${CSI}2~`],
    ["delete", `${CSI}3~`],
    ["pageup", `${CSI}5~`],
    ["alt+pagedown", `${CSI}6;3~`],
    ["F1", `${CSI}P`],
    ["ctrl+F1", `${CSI}1;5P`],
    ["F2", `${CSI}Q`],
    ["F3", `${CSI}13~`],
    ["shift+F3", `${CSI}13;2~`],
    ["F4", `${CSI}S`],
    ["F5", `${CSI}15~`],
    ["F12", `${CSI}24~`],
    ["ctrl+F12", `${CSI}24;5~`],
    ["F13", `${CSI}57376u`],
    ["F24", `${CSI}57387u`],
    ["shift+F13", `${CSI}57376;2u`],
  ]);

  test("ctrl+i differs from Tab, unlike legacy", () => {
    expect(enc("ctrl+i", 1)).not.toBe(enc("tab", 1));
    expect(enc("ctrl+i", 0)).toBe(enc("tab", 0));
  });
  test("arrows ignore DECCKM once disambiguation is on", () => {
    expect(enc("up", 1, true)).toBe(`${CSI}A`);
    expect(enc("up", 0, true)).toBe("\x1bOA");
  });
});

describe("flag 8: report all keys as escape codes", () => {
  table(KITTY_FLAGS.reportAllKeys, [
    ["a", `${CSI}97u`],
    ["A", `${CSI}97;2u`],
    ["shift+a", `${CSI}97;2u`],
    ["ctrl+a", `${CSI}97;5u`],
    ["1", `${CSI}49u`],
    ["!", `${CSI}49;2u`],
    ["shift+/", `${CSI}47;2u`],
    ["space", `${CSI}32u`],
    ["é", `${CSI}233u`],
    ["Enter", `${CSI}13u`],
    ["Tab", `${CSI}9u`],
    ["Backspace", `${CSI}127u`],
    ["Escape", `${CSI}27u`],
    ["shift+enter", `${CSI}13;2u`],
    ["up", `${CSI}A`],
    ["F1", `${CSI}P`],
  ]);
  table(KITTY_FLAGS.reportAllKeys | KITTY_FLAGS.disambiguate, [
    ["a", `${CSI}97u`],
    ["Enter", `${CSI}13u`],
    ["ctrl+shift+a", `${CSI}97;6u`],
  ]);
});

describe("flags 2, 4 and 16 (press events only)", () => {
  // Press is the default event type: no ":1" sub-field.
  table(KITTY_FLAGS.disambiguate | KITTY_FLAGS.reportEventTypes, [
    ["ctrl+a", `${CSI}97;5u`],
    ["Escape", `${CSI}27u`],
    ["a", "a"],
  ]);
  // Alternate keys: shifted key after a colon, only when shift is held.
  table(KITTY_FLAGS.reportAllKeys | KITTY_FLAGS.reportAlternateKeys, [
    ["shift+a", `${CSI}97:65;2u`],
    ["!", `${CSI}49:33;2u`],
    ["a", `${CSI}97u`],
    ["shift+enter", `${CSI}13;2u`],
  ]);
  table(KITTY_FLAGS.disambiguate | KITTY_FLAGS.reportAlternateKeys, [
    ["ctrl+shift+a", `${CSI}97:65;6u`],
    ["ctrl+a", `${CSI}97;5u`],
  ]);
  // Associated text, embedded with report-all-keys.
  table(KITTY_FLAGS.reportAllKeys | KITTY_FLAGS.reportAssociatedText, [
    ["shift+a", `${CSI}97;2;65u`],
    ["a", `${CSI}97;;97u`],
    ["é", `${CSI}233;;233u`],
    ["ctrl+a", `${CSI}97;5u`],
    ["Enter", `${CSI}13u`],
  ]);
  table(31, [
    ["shift+a", `${CSI}97:65;2;65u`],
    ["ctrl+a", `${CSI}97;5u`],
    ["Escape", `${CSI}27u`],
  ]);
  // Without flags 1 and 8, kitty keeps its legacy encodings.
  table(KITTY_FLAGS.reportEventTypes, [
    ["ctrl+a", "\x01"],
    ["alt+a", "\x1ba"],
    ["Escape", "\x1b"],
    ["Enter", "\r"],
    ["a", "a"],
    ["F1", `${CSI}P`],
  ]);
  table(KITTY_FLAGS.reportAssociatedText, [
    ["ctrl+a", "\x01"],
    ["ctrl+alt+a", "\x1b\x01"],
    ["ctrl+shift+a", `${CSI}97;6u`],
    ["ctrl+shift+2", "\x00"],
    ["alt+enter", "\x1b\r"],
    ["shift+tab", `${CSI}Z`],
    ["ctrl+backspace", "\x08"],
    ["F1", "\x1bOP"],
    ["a", "a"],
  ]);
  test("legacy-mode flags keep DECCKM", () => {
    expect(enc("up", KITTY_FLAGS.reportAlternateKeys, true)).toBe("\x1bOA");
  });
});

describe("never emits garbage", () => {
  const VALID = [
    /^\x1b\[\d+(:\d+)?(;\d*(;\d+(:\d+)*)?)?[u~]$/, // CSI number ; mods ; text u|~
    /^\x1b\[(1;\d+)?[ABCDFHPQS]$/, // CSI 1;mods letter
    /^\x1bO[ABCDFHPQRS]$/, // SS3
    /^\x1b?(\x1b\[Z|[\x00-\x7f]|é)$/, // legacy byte, optionally ESC-prefixed
  ];
  const samples = [...keyNames, "a", "z", "1", "!", "/", "[", "é"];
  test("every key x 16 modifier combos x flags 1..31 matches a kitty/legacy form", () => {
    for (let flags = 1; flags < 32; flags++) {
      for (const key of samples) {
        for (let bits = 0; bits < 16; bits++) {
          const spec = {
            ...parseKey(key),
            shift: (bits & 1) !== 0,
            alt: (bits & 2) !== 0,
            ctrl: (bits & 4) !== 0,
            meta: (bits & 8) !== 0,
          };
          const out = encodeKey(spec, modes(flags));
          const plainText = ["A", "Z", "!", "?", "{", "É", " "].includes(out);
          if (!plainText && !VALID.some((re) => re.test(out)))
            throw new Error(`flags ${flags} ${JSON.stringify(spec)} -> ${JSON.stringify(out)}`);
        }
      }
    }
  });
});

describe("legacy stays bit-exact when kittyFlags is 0", () => {
  const rows: [string, string][] = [
    ["ctrl+a", "\x01"],
    ["ctrl+i", "\t"],
    ["alt+a", "\x1ba"],
    ["Escape", "\x1b"],
    ["shift+enter", "\r"],
    ["Enter", "\r"],
    ["shift+tab", `${CSI}Z`],
    ["F3", "\x1bOR"],
    ["F13", `${CSI}25~`],
    ["ctrl+up", `${CSI}1;5A`],
    ["a", "a"],
    ["A", "A"],
    ["ctrl+shift+a", "\x01"],
    ["meta+a", "\x1ba"],
    ["ctrl+space", "\x00"],
  ];
  test.each(rows)("%s", (key, bytes) => {
    expect(encodeKey(parseKey(key), LEGACY_MODES)).toBe(bytes);
    expect(encodeKey(parseKey(key), modes(0))).toBe(bytes);
  });
  test("turning the flags on changes the disambiguated keys", () => {
    for (const key of ["ctrl+a", "alt+a", "Escape", "shift+enter", "F3", "F13"]) {
      expect(enc(key, 1)).not.toBe(enc(key, 0));
    }
  });
});
