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
