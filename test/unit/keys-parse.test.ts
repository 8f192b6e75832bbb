/** Key chord parsing: names, aliases, separators, canonical form, errors with suggestions. */
import { describe, expect, test } from "bun:test";
import { isTuiError, type TuiError } from "../../src/errors.ts";
import { keyNames, type KeySpec, parseKey, parseKeys } from "../../src/keys/index.ts";

const spec = (key: string, mods: Partial<Omit<KeySpec, "key">> = {}): KeySpec => ({
  key,
  ctrl: false,
  shift: false,
  alt: false,
  meta: false,
  ...mods,
});

function thrown(fn: () => unknown): TuiError {
  try {
    fn();
  } catch (e) {
    if (isTuiError(e)) return e;
    throw e;
  }
  throw new Error("expected a TuiError");
}

describe("named keys and aliases", () => {
  const aliases: [string, string][] = [
    ["enter", "Enter"],
    ["return", "Enter"],
    ["cr", "Enter"],
    ["RETURN", "Enter"],
    ["tab", "Tab"],
    ["esc", "Escape"],
    ["Escape", "Escape"],
    ["backspace", "Backspace"],
    ["bs", "Backspace"],
    ["space", "Space"],
    ["SPACE", "Space"],
    ["up", "ArrowUp"],
    ["arrowup", "ArrowUp"],
    ["ArrowUp", "ArrowUp"],
    ["down", "ArrowDown"],
    ["ArrowDown", "ArrowDown"],
    ["left", "ArrowLeft"],
    ["right", "ArrowRight"],
    ["home", "Home"],
    ["end", "End"],
    ["insert", "Insert"],
    ["ins", "Insert"],
    ["delete", "Delete"],
    ["del", "Delete"],
    ["pageup", "PageUp"],
    ["pgup", "PageUp"],
    ["page_up", "PageUp"],
    ["PageUp", "PageUp"],
    ["pagedown", "PageDown"],
    ["pgdn", "PageDown"],
    ["page_down", "PageDown"],
    ["f1", "F1"],
    ["F12", "F12"],
    ["f24", "F24"],
  ];
  test.each(aliases)("%s -> %s", (input, canonical) => {
    expect(parseKey(input)).toEqual(spec(canonical));
  });
  test("plus and minus name the characters", () => {
    expect(parseKey("plus")).toEqual(spec("+"));
    expect(parseKey("ctrl+minus")).toEqual(spec("-", { ctrl: true }));
  });
  test("keyNames lists the canonical names", () => {
    expect(keyNames).toContain("Enter");
    expect(keyNames).toContain("PageDown");
    expect(keyNames).toContain("F24");
    expect(keyNames).not.toContain("F25");
    expect(keyNames.length).toBe(15 + 24);
  });
});

describe("modifiers and separators", () => {
  test.each([
    ["ctrl+c", { ctrl: true }],
    ["control+c", { ctrl: true }],
    ["ctl+c", { ctrl: true }],
    ["CTRL+c", { ctrl: true }],
    ["shift+c", { shift: true }],
    ["alt+c", { alt: true }],
    ["option+c", { alt: true }],
    ["opt+c", { alt: true }],
    ["meta+c", { meta: true }],
    ["cmd+c", { meta: true }],
    ["command+c", { meta: true }],
    ["super+c", { meta: true }],
    ["win+c", { meta: true }],
  ] as const)("%s", (input, mods) => {
    expect(parseKey(input)).toEqual(spec("c", mods));
  });
  test("+ and - both separate, and can be mixed", () => {
    const want = spec("ArrowUp", { ctrl: true, shift: true });
    expect(parseKey("ctrl+shift+up")).toEqual(want);
    expect(parseKey("ctrl-shift-up")).toEqual(want);
    expect(parseKey("Ctrl-Shift+Up")).toEqual(want);
    expect(parseKey("shift+ctrl+up")).toEqual(want);
    expect(parseKey("ctrl + shift + up")).toEqual(want);
  });
  test("separators as the key itself", () => {
    expect(parseKey("+")).toEqual(spec("+"));
    expect(parseKey("-")).toEqual(spec("-"));
    expect(parseKey("ctrl++")).toEqual(spec("+", { ctrl: true }));
    expect(parseKey("ctrl+-")).toEqual(spec("-", { ctrl: true }));
    expect(parseKey("ctrl--")).toEqual(spec("-", { ctrl: true }));
    expect(parseKey("alt-+")).toEqual(spec("+", { alt: true }));
    expect(parseKey("ctrl+shift++")).toEqual(spec("+", { ctrl: true, shift: true }));
  });
  test("space as a literal or a name", () => {
    expect(parseKey(" ")).toEqual(spec("Space"));
    expect(parseKey("space")).toEqual(spec("Space"));
    expect(parseKey("ctrl+ ")).toEqual(spec("Space", { ctrl: true }));
    expect(parseKey("ctrl+space")).toEqual(spec("Space", { ctrl: true }));
  });
});

describe("canonical form", () => {
  test("an upper-case letter is the lower-case letter plus shift", () => {
    expect(parseKey("A")).toEqual(spec("a", { shift: true }));
    expect(parseKey("shift+a")).toEqual(parseKey("A"));
    expect(parseKey("ctrl+A")).toEqual(spec("a", { ctrl: true, shift: true }));
    expect(parseKey("É")).toEqual(spec("é", { shift: true }));
  });
  test("other characters are kept as typed", () => {
    expect(parseKey("a")).toEqual(spec("a"));
    expect(parseKey("!")).toEqual(spec("!"));
    expect(parseKey("shift+1")).toEqual(spec("1", { shift: true }));
    expect(parseKey("[")).toEqual(spec("["));
    expect(parseKey("é")).toEqual(spec("é"));
    expect(parseKey("😀")).toEqual(spec("😀"));
  });
  test("names are case-insensitive, single characters are not", () => {
    expect(parseKey("F5")).toEqual(parseKey("f5"));
    expect(parseKey("a")).not.toEqual(parseKey("A"));
  });
  test("object input; booleans add to any chord in key", () => {
    expect(parseKey({ key: "F5", ctrl: true })).toEqual(spec("F5", { ctrl: true }));
    expect(parseKey({ key: "enter" })).toEqual(spec("Enter"));
    expect(parseKey({ key: "ctrl+a", alt: true })).toEqual(spec("a", { ctrl: true, alt: true }));
    expect(parseKey({ key: "+", shift: true })).toEqual(spec("+", { shift: true }));
    expect(parseKey({ key: "A", shift: false })).toEqual(spec("a", { shift: true }));
  });
  test("specs have exactly the five contract fields", () => {
    expect(Object.keys(parseKey("ctrl+x")).sort()).toEqual(["alt", "ctrl", "key", "meta", "shift"]);
  });
});

describe("errors", () => {
  test("unknown key name with the nearest suggestion", () => {
    const e = thrown(() => parseKey("ctrl+foo"));
    expect(e.code).toBe("INVALID_KEY");
    expect(e.message).toBe('Unknown key "ctrl+foo": "foo" is not a key name');
    expect(e.hint).toStartWith('Did you mean "f1"? Valid names: ');
    expect(e.hint).toContain("PageDown");
  });
  test.each([
    ["ctrl+entr", "enter"],
    ["escpae", "escape"],
    ["pgdwn", "pgdn"],
    ["tba", "tab"],
    ["F25", "f2"],
    ["hom", "home"],
    ["ctrl+nope", "home"],
  ])("%s suggests %s", (input, guess) => {
    expect(thrown(() => parseKey(input)).hint).toStartWith(`Did you mean "${guess}"?`);
  });
  test("unknown modifier names the modifier and suggests one", () => {
    const e = thrown(() => parseKey("ctlr+a"));
    expect(e.message).toBe('Unknown key "ctlr+a": "ctlr" is not a modifier');
    expect(e.hint).toStartWith('Did you mean "ctrl"?');
    expect(thrown(() => parseKey("shfit-tab")).hint).toStartWith('Did you mean "shift"?');
    expect(thrown(() => parseKey("a+b")).message).toContain('"a" is not a modifier');
  });
  test("far-off names get the list without a guess", () => {
    const e = thrown(() => parseKey("xyzzyplugh"));
    expect(e.hint).toStartWith("Valid names: ");
  });
  test("empty input and missing keys", () => {
    expect(thrown(() => parseKey("")).message).toContain("empty");
    expect(thrown(() => parseKey({ key: "" })).code).toBe("INVALID_KEY");
    expect(thrown(() => parseKey("ctrl+")).hint).toContain("ctrl++");
    expect(thrown(() => parseKey("ctrl++a")).code).toBe("INVALID_KEY");
    expect(thrown(() => parseKey("+a")).code).toBe("INVALID_KEY");
    expect(thrown(() => parseKey("ctrl")).message).toContain("is a modifier, not a key");
    expect(thrown(() => parseKey("ctrl+shift")).message).toContain('"shift" is a modifier');
  });
  test("control characters are refused with a pointer to names and send_raw", () => {
    const e = thrown(() => parseKey("\x03"));
    expect(e.code).toBe("INVALID_KEY");
    expect(e.hint).toContain("send_raw");
    expect(thrown(() => parseKey("ctrl+\n")).code).toBe("INVALID_KEY");
  });
  test("non-string, non-object input", () => {
    expect(thrown(() => parseKey(42 as unknown as string)).code).toBe("INVALID_KEY");
    expect(thrown(() => parseKey({} as unknown as string)).code).toBe("INVALID_KEY");
  });
});

describe("parseKeys", () => {
  test("a single chord or object becomes a one-element list", () => {
    expect(parseKeys("ctrl+c")).toEqual([spec("c", { ctrl: true })]);
    expect(parseKeys({ key: "F5" })).toEqual([spec("F5")]);
  });
  test("a list keeps order and mixes strings and objects", () => {
    expect(parseKeys(["ctrl+shift+up", "shift+tab", { key: "F5" }, "Enter"])).toEqual([
      spec("ArrowUp", { ctrl: true, shift: true }),
      spec("Tab", { shift: true }),
      spec("F5"),
      spec("Enter"),
    ]);
  });
  test("one bad entry rejects the whole list and reports its index", () => {
    const e = thrown(() => parseKeys(["a", "ctrl+entr", "b"]));
    expect(e.code).toBe("INVALID_KEY");
    expect(e.message).toBe('Unknown key "ctrl+entr": "entr" is not a key name');
    expect(e.hint).toStartWith('Did you mean "enter"?');
    expect(e.details).toEqual({ index: 1 });
  });
  test("an empty list is an error", () => {
    expect(thrown(() => parseKeys([])).code).toBe("INVALID_KEY");
  });
});
