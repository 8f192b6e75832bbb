/** Literal-or-regex text matching shared by waits, assertions and mouse targets. */
import { TuiError } from "../errors.ts";

export interface PatternSpec {
  pattern: string;
  regex?: boolean;
  regexFlags?: string;
}

/** string for a literal match, or Array.from(RegExpMatchArray) for a regex (full match, then groups). */
export type MatchValue = string | string[];

export interface Matcher {
  /** The match and where it starts in the haystack, or null. */
  find(haystack: string): { value: MatchValue; index: number; length: number } | null;
  readonly source: string;
}

export function compileMatcher(spec: PatternSpec): Matcher {
  if (spec.pattern.length === 0) {
    throw new TuiError("INVALID_ARGUMENT", "pattern is empty; an empty pattern matches anything.", "Pass the text (or regex) you expect on screen.");
  }
  if (!spec.regex) {
    if (spec.regexFlags) throw new TuiError("INVALID_ARGUMENT", `regexFlags "${spec.regexFlags}" given without regex: true.`, "Set regex: true, or drop regexFlags.");
    return {
      source: spec.pattern,
      find(haystack) {
        const index = haystack.indexOf(spec.pattern);
        return index < 0 ? null : { value: spec.pattern, index, length: spec.pattern.length };
      },
    };
  }
  let re: RegExp;
  try {
    // "g" and "y" would make exec() stateful across calls; they are dropped.
    re = new RegExp(spec.pattern, (spec.regexFlags ?? "").replace(/[gy]/g, ""));
  } catch (error) {
    throw new TuiError("INVALID_REGEX", `Invalid regex /${spec.pattern}/${spec.regexFlags ?? ""}: ${(error as Error).message}`, "Fix the pattern, or pass regex: false to match it literally.");
  }
  return {
    source: spec.pattern,
    find(haystack) {
      const m = re.exec(haystack);
      return m === null ? null : { value: Array.from(m, (g) => g ?? ""), index: m.index, length: m[0].length };
    },
  };
}
