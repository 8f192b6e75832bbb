import { expect, test } from "bun:test";
import { COMPILED_CACHE_SIZE, compiledRegexCount, compileMatcher, MAX_REGEX_CHARS } from "../../src/session/matcher.ts";

test("literal match returns the pattern itself", async () => {
  expect(await compileMatcher({ pattern: "a.b" }).find("xxa.bxx")).toEqual({ value: "a.b", index: 2, length: 3 });
  expect(await compileMatcher({ pattern: "a.b" }).find("axb")).toBeNull();
});

test("regex match returns the full match then groups", async () => {
  const version = compileMatcher({ pattern: "v=(\\d+)\\.(\\d+)", regex: true });
  expect(version.engine).toBe("re2");
  expect((await version.find("v=1.22"))?.value).toEqual(["v=1.22", "1", "22"]);
  expect((await compileMatcher({ pattern: "HELLO", regex: true, regexFlags: "i" }).find("hello"))?.value).toEqual([
    "hello",
  ]);
  // a group that did not take part is "" (as Array.from(RegExpMatchArray) with ?? "")
  expect((await compileMatcher({ pattern: "a(x)?b", regex: true }).find("ab"))?.value).toEqual(["ab", ""]);
});

test("bad patterns are clear errors", () => {
  expect(() => compileMatcher({ pattern: "(", regex: true })).toThrow(/Invalid regex/);
  expect(() => compileMatcher({ pattern: "" })).toThrow(/empty/);
  expect(() => compileMatcher({ pattern: "x", regexFlags: "i" })).toThrow(/without regex/);
});

test("a literal's trailing spaces may reach the right edge exactly, not one column past it", async () => {
  // "ab " on a 3-column row: the space is the last column
  expect(await compileMatcher({ pattern: "ab " }).find("ab", { screenCols: 3 })).toEqual({
    value: "ab ",
    index: 0,
    length: 2,
  });
  expect(await compileMatcher({ pattern: "ab " }).find("ab", { screenCols: 2 })).toBeNull();
  // only spaces: a row with exactly that much blank room at its end
  expect(await compileMatcher({ pattern: "  " }).find("abc", { screenCols: 5 })).not.toBeNull();
  expect(await compileMatcher({ pattern: "  " }).find("abc", { screenCols: 4 })).toBeNull();
});

test("a literal with trailing spaces matches the screen as displayed", async () => {
  // screen text arrives right-trimmed per row; the prompt "$ " lost its space
  const screen = "hello\nuser@host:~$\n\n";
  expect(await compileMatcher({ pattern: "$ " }).find(screen)).toBeNull();
  const found = await compileMatcher({ pattern: "$ " }).find(screen, { screenCols: 20 });
  expect(found).toEqual({ value: "$ ", index: 17, length: 1 });
  expect(await compileMatcher({ pattern: ">>> " }).find(">>>", { screenCols: 80 })).not.toBeNull();
  // more spaces than the row has columns left is not on screen
  expect(await compileMatcher({ pattern: "ab   " }).find("ab", { screenCols: 4 })).toBeNull();
  // spaces before a line break stand for the blank end of that row
  expect(await compileMatcher({ pattern: "42\n>>> " }).find(">>> 6*7\n42\n>>>\n", { screenCols: 80 })).toEqual({
    value: "42\n>>> ",
    index: 8,
    length: 6,
  });
  // a space written inside the row must really be a space
  expect(await compileMatcher({ pattern: "$ " }).find("$x", { screenCols: 80 })).toBeNull();
  // multi-row literals still match the trimmed text
  expect(await compileMatcher({ pattern: "hello\nuser" }).find(screen, { screenCols: 20 })).not.toBeNull();
});

test("regex $ is the end of the last non-blank row; with m, of every row", async () => {
  const screen = "line one\nuser@host:~$\n\n\n";
  expect(await compileMatcher({ pattern: "\\$$", regex: true }).find(screen, { screenCols: 80 })).not.toBeNull();
  expect(await compileMatcher({ pattern: "one$", regex: true }).find(screen, { screenCols: 80 })).toBeNull();
  expect(
    await compileMatcher({ pattern: "one$", regex: true, regexFlags: "m" }).find(screen, { screenCols: 80 }),
  ).not.toBeNull();
  expect(
    await compileMatcher({ pattern: "^user", regex: true, regexFlags: "m" }).find(screen, { screenCols: 80 }),
  ).not.toBeNull();
  expect(await compileMatcher({ pattern: "^user", regex: true }).find(screen, { screenCols: 80 })).toBeNull();
});

test("catastrophic patterns run in linear time on RE2", async () => {
  const screen = `${"a".repeat(80)}\n`.repeat(22) + "a".repeat(40) + "\n\n";
  const matcher = compileMatcher({ pattern: "(a+)+b", regex: true });
  expect(matcher.engine).toBe("re2");
  // synchronous and no match; backtracking would take hours on this screen
  expect(matcher.find(screen, { screenCols: 80 })).toBeNull();
  expect(compileMatcher({ pattern: "(a+)+$", regex: true }).find("a".repeat(1800))).not.toBeNull();
});

test("lookaround and backreferences fall back to JS RegExp", async () => {
  const look = compileMatcher({ pattern: "foo(?=bar)", regex: true });
  expect(look.engine).toBe("js");
  expect((await look.find("foobaz foobar"))?.index).toBe(7);
  using back = compileMatcher({ pattern: "(\\w)\\1", regex: true });
  expect(back.engine).toBe("js");
  expect((await back.find("abccd"))?.value).toEqual(["cc", "c"]);
  look[Symbol.dispose]();
});

test("a catastrophic JS-only pattern is stopped at its budget with REGEX_TIMEOUT", async () => {
  using matcher = compileMatcher({ pattern: "(a+)+(?<!x)b", regex: true });
  expect(matcher.engine).toBe("js");
  let ticks = 0;
  const ticker = setInterval(() => ticks++, 5);
  const error = await Promise.resolve(matcher.find("a".repeat(40), { budgetMs: 200 })).catch((e: unknown) => e);
  clearInterval(ticker);
  expect(error).toMatchObject({ code: "REGEX_TIMEOUT" });
  expect(ticks).toBeGreaterThan(0); // the event loop kept running meanwhile
  // the matcher still works after its worker was stopped
  expect(await matcher.find("ab", { budgetMs: 2000 })).not.toBeNull();
});

test("RE2 syntax JS lacks is accepted too", async () => {
  expect(await compileMatcher({ pattern: "(?i)hello", regex: true }).find("HELLO")).not.toBeNull();
});

test("a regex longer than MAX_REGEX_CHARS is refused before compiling; a literal that long is fine", async () => {
  const long = "z".repeat(4 * 1024 * 1024);
  // Compiled, this (unbalanced) pattern would block RE2 for seconds.
  expect(() => compileMatcher({ pattern: `(${long}`, regex: true })).toThrow(`at most ${MAX_REGEX_CHARS}`);
  expect(() => compileMatcher({ pattern: "z".repeat(MAX_REGEX_CHARS + 1), regex: true })).toThrow(
    expect.objectContaining({ code: "INVALID_ARGUMENT", hint: expect.stringContaining("regex: false") }),
  );
  expect(
    await compileMatcher({ pattern: `a${"z".repeat(MAX_REGEX_CHARS - 1)}`, regex: true }).find(`xa${long}`),
  ).toMatchObject({ index: 1 });
  expect(await compileMatcher({ pattern: long }).find(`x${long}`)).toMatchObject({ index: 1 });
});

test("compiled regexes are shared per pattern and flags, and the cache stays bounded", async () => {
  const plain = compileMatcher({ pattern: "abc", regex: true });
  const caseless = compileMatcher({ pattern: "abc", regex: true, regexFlags: "i" });
  expect(plain.find("ABC")).toBeNull();
  expect(caseless.find("ABC")).not.toBeNull();
  expect(compileMatcher({ pattern: "abc", regex: true }).find("xabc")).not.toBeNull();
  for (let i = 0; i <= COMPILED_CACHE_SIZE; i++) compileMatcher({ pattern: `^n${i}$`, regex: true });
  expect(compiledRegexCount()).toBe(COMPILED_CACHE_SIZE);
  // evicted patterns compile again, correctly
  expect((await compileMatcher({ pattern: "abc", regex: true, regexFlags: "i" }).find("xABC"))?.index).toBe(1);
});

test("each bad pattern names its code, the pattern (cut) and the fix", () => {
  const error = (spec: Parameters<typeof compileMatcher>[0]) => {
    try {
      compileMatcher(spec);
    } catch (e) {
      return e as { code: string; message: string; hint: string };
    }
    throw new Error("no error");
  };
  expect(error({ pattern: "" })).toMatchObject({
    code: "INVALID_ARGUMENT",
    hint: "Pass the text (or regex) you expect on screen.",
  });
  const flags = error({ pattern: "x", regexFlags: "i".repeat(30) });
  expect(flags).toMatchObject({ code: "INVALID_ARGUMENT", hint: "Set regex: true, or drop regexFlags." });
  expect(flags.message).toBe(`regexFlags "${"i".repeat(20)}" given without regex: true.`);
  const long = `(${"a".repeat(150)}`;
  const invalid = error({ pattern: long, regex: true, regexFlags: "gi" });
  expect(invalid).toMatchObject({
    code: "INVALID_REGEX",
    hint: "Fix the pattern, or pass regex: false to match it literally.",
  });
  expect(invalid.message.startsWith(`Invalid regex /${long.slice(0, 100)}/i: `)).toBe(true);
  expect(invalid.message.length).toBeLessThan(100 + 220);
});

test("a literal at the very start is found as it is, also without screen columns", async () => {
  expect(await compileMatcher({ pattern: "ab" }).find("abc")).toEqual({ value: "ab", index: 0, length: 2 });
  expect(compileMatcher({ pattern: "ab" }).engine).toBe("literal");
});

test("a literal of spaces is placed at the blank end of the first row with room", async () => {
  // row 0 "abcd" has 1 blank column, row 1 "x" has 4: the match starts right after "x"
  expect(await compileMatcher({ pattern: "  " }).find("abcd\nx\nyz", { screenCols: 5 })).toEqual({
    value: "  ",
    index: 6,
    length: 0,
  });
});

test("trailing spaces are matched against the row's own end, not the next row's", async () => {
  // "b " at the end of row 0 (written spaces after it) and a following row
  expect(await compileMatcher({ pattern: "b  " }).find("ab  \nzz", { screenCols: 10 })).toEqual({
    value: "b  ",
    index: 1,
    length: 3,
  });
  expect(await compileMatcher({ pattern: "z " }).find("ab\nzz", { screenCols: 3 })).toEqual({
    value: "z ",
    index: 4,
    length: 1,
  });
});

test("screen regexes (RE2 and the JS fallback) ignore blank rows at the end; raw text keeps them", async () => {
  const screen = "abc\n\n\n";
  expect(await compileMatcher({ pattern: "c$", regex: true }).find(screen, { screenCols: 10 })).not.toBeNull();
  expect(await compileMatcher({ pattern: "c$", regex: true }).find(screen)).toBeNull();
  using js = compileMatcher({ pattern: "(?<=b)c$", regex: true });
  expect(js.engine).toBe("js");
  expect(await js.find(screen, { screenCols: 10 })).toEqual({ value: ["c"], index: 2, length: 1 });
  expect(await js.find(screen)).toBeNull();
});
