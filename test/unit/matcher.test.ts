import { expect, test } from "bun:test";
import { compileMatcher } from "../../src/session/matcher.ts";

test("literal match returns the pattern itself", () => {
  expect(compileMatcher({ pattern: "a.b" }).find("xxa.bxx")).toEqual({ value: "a.b", index: 2, length: 3 });
  expect(compileMatcher({ pattern: "a.b" }).find("axb")).toBeNull();
});

test("regex match returns the full match then groups", () => {
  expect(compileMatcher({ pattern: "v=(\\d+)\\.(\\d+)", regex: true }).find("v=1.22")?.value).toEqual(["v=1.22", "1", "22"]);
  expect(compileMatcher({ pattern: "HELLO", regex: true, regexFlags: "i" }).find("hello")?.value).toEqual(["hello"]);
});

test("bad patterns are clear errors", () => {
  expect(() => compileMatcher({ pattern: "(", regex: true })).toThrow(/Invalid regex/);
  expect(() => compileMatcher({ pattern: "" })).toThrow(/empty/);
  expect(() => compileMatcher({ pattern: "x", regexFlags: "i" })).toThrow(/without regex/);
});
