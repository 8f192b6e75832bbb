/**
 * Literal-or-regex text matching shared by waits, assertions and mouse targets.
 *
 * No match may hold the event loop for long (docs/design.md: everything is bounded):
 * - literals: indexOf, linear;
 * - regexes: RE2 semantics through re2js, linear in the haystack whatever the pattern;
 * - only what RE2 cannot express (lookahead, lookbehind, backreferences) falls back to JS RegExp,
 *   run in a worker with a deadline (regex-fallback.ts) so a catastrophic pattern costs a
 *   REGEX_TIMEOUT, not a frozen server.
 *
 * Screen haystacks (`screenCols` given) are the visible rows joined with "\n", each row right-trimmed.
 * A literal matches the screen as displayed: its spaces at a row's end match the blank cells there,
 * so "$ " finds a bash prompt and "42\n>>> " a python answer. A regex runs on the trimmed rows with trailing blank
 * rows dropped: `$`
 * is the end of the last non-blank row, and with the `m` flag the end of each row's visible text.
 */
import { RE2JS } from "re2js";
import { TuiError } from "../errors.ts";
import { RegexFallback } from "./regex-fallback.ts";

export interface PatternSpec {
  pattern: string;
  regex?: boolean;
  regexFlags?: string;
}

/** string for a literal match, or Array.from(RegExpMatchArray) for a regex (full match, then groups). */
export type MatchValue = string | string[];

export interface Found {
  value: MatchValue;
  /** Where the match starts in the haystack as given (for a screen, in the trimmed text). */
  index: number;
  length: number;
}

export interface FindOptions {
  /** The haystack is screen text of this width: literals also match the rows padded to it. */
  screenCols?: number;
  /** Time allowed to the JS fallback engine; RE2 and literals ignore it (they are linear). */
  budgetMs?: number;
  /**
   * Literal and RE2 matchers: only a match this accepts counts; later ones are tried (at most
   * MAX_CANDIDATES). The JS fallback ignores it (its caller hides what must not match instead).
   */
  accept?: (index: number, length: number) => boolean;
}

/** Matches one find looks at when `accept` refuses them (each costs a linear search). */
export const MAX_CANDIDATES = 64;

export type MatchEngine = "literal" | "re2" | "js";

export interface Matcher extends Disposable {
  readonly source: string;
  readonly engine: MatchEngine;
  /**
   * The match, or null. Literal and RE2 matchers answer synchronously (a wait can look at the exact
   * frame a synchronized update completes); the JS fallback answers with a promise that rejects with
   * REGEX_TIMEOUT when it overruns its budget. Callers that do not care just `await` it.
   */
  find(haystack: string, options?: FindOptions): Found | null | Promise<Found | null>;
}

/** Budget of one JS-fallback match when the caller gives none. */
export const DEFAULT_FALLBACK_BUDGET_MS = 1000;
/**
 * Longest regex accepted. RE2's compile is superlinear in the pattern and blocks the event loop
 * (10,000 characters: about 60 ms; 4 MB: 13 s), so a longer one is refused before compiling.
 * A long literal text needs no regex: literals have no limit (indexOf is linear).
 */
export const MAX_REGEX_CHARS = 10_000;
/** No error message echoes more than this much of a pattern. */
const ECHO_CHARS = 100;

const RE2_FLAGS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

export function compileMatcher(spec: PatternSpec): Matcher {
  const shown = spec.pattern.slice(0, ECHO_CHARS);
  if (spec.pattern.length === 0) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      "pattern is empty; an empty pattern matches anything.",
      "Pass the text (or regex) you expect on screen.",
    );
  }
  if (!spec.regex) {
    if (spec.regexFlags)
      throw new TuiError(
        "INVALID_ARGUMENT",
        `regexFlags "${spec.regexFlags.slice(0, 20)}" given without regex: true.`,
        "Set regex: true, or drop regexFlags.",
      );
    return literalMatcher(spec.pattern);
  }
  if (spec.pattern.length > MAX_REGEX_CHARS) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `regex pattern is ${spec.pattern.length} characters; at most ${MAX_REGEX_CHARS} are accepted.`,
      "Use a shorter regex, or pass regex: false to match the text literally (literals have no length limit).",
    );
  }
  // "g" and "y" would make exec() stateful across calls; "d" and "u"/"v" change nothing we report.
  const flags = (spec.regexFlags ?? "").replace(/[gyd]/g, "");
  const compiled = compileRegex(spec.pattern, flags);
  if (compiled.re2) return re2Matcher(spec.pattern, compiled.re2);
  if (compiled.jsError)
    throw new TuiError(
      "INVALID_REGEX",
      `Invalid regex /${shown}/${flags}: ${compiled.jsError.message.slice(0, 200)}`,
      "Fix the pattern, or pass regex: false to match it literally.",
    );
  return jsMatcher(spec.pattern, flags);
}

interface CompiledRegex {
  /** The RE2 program, when the pattern is RE2 syntax. RE2JS.exec keeps no state, so one serves every caller. */
  re2?: RE2JS;
  /** Why JavaScript's engine refuses the pattern, when it does. */
  jsError?: Error;
}

/**
 * Compiled regexes, newest last. One input compiles its waitFor pattern up to three times (the up-front
 * check, the wait, the history's look), and a test reruns the same patterns; RE2's compile costs far
 * more than its match, so the last COMPILED_CACHE_SIZE patterns are kept.
 */
const compiledCache = new Map<string, CompiledRegex>();
export const COMPILED_CACHE_SIZE = 64;

/** How many compiled regexes are kept now (for tests of the bound). */
export function compiledRegexCount(): number {
  return compiledCache.size;
}

function compileRegex(pattern: string, flags: string): CompiledRegex {
  const key = `${flags}/${pattern}`;
  const cached = compiledCache.get(key);
  if (cached) {
    compiledCache.delete(key);
    compiledCache.set(key, cached);
    return cached;
  }
  const compiled: CompiledRegex = {};
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    compiled.jsError = error as Error;
  }
  if (!/v/.test(flags)) {
    try {
      const re2Flags = [...flags].reduce((n, f) => n | (RE2_FLAGS[f] ?? 0), 0);
      compiled.re2 = RE2JS.compile(RE2JS.translateRegExp(pattern), re2Flags);
    } catch {
      // Not RE2 syntax: the JS engine may still take it (lookaround, backreferences).
    }
  }
  compiledCache.set(key, compiled);
  if (compiledCache.size > COMPILED_CACHE_SIZE) compiledCache.delete(compiledCache.keys().next().value!);
  return compiled;
}

function literalMatcher(pattern: string): Matcher {
  return {
    source: pattern,
    engine: "literal",
    find(haystack, options) {
      const accept = options?.accept ?? (() => true);
      let tries = 0;
      for (
        let at = haystack.indexOf(pattern);
        at >= 0 && tries++ < MAX_CANDIDATES;
        at = haystack.indexOf(pattern, at + 1)
      )
        if (accept(at, pattern.length)) return { value: pattern, index: at, length: pattern.length };
      return options?.screenCols === undefined ? null : findAsDisplayed(haystack, pattern, options.screenCols, accept);
    },
    [Symbol.dispose]() {},
  };
}

/**
 * A literal in screen text whose rows were right-trimmed: the pattern's spaces before a line break
 * stand for the blank end of that row, and its final spaces must fit in the blank (or spaces) after
 * the match on its last row. So "$ " finds a bare bash prompt and "42\n>>> " a python answer.
 */
function findAsDisplayed(
  text: string,
  pattern: string,
  cols: number,
  accept: (index: number, length: number) => boolean,
): Found | null {
  const lines = pattern.split("\n");
  const last = lines[lines.length - 1]!;
  const tail = last.length - last.trimEnd().length;
  const core = lines.map((line) => line.trimEnd()).join("\n");
  if (core.length === 0) {
    // only spaces: any row with that much blank room at its end
    let rowStart = 0;
    for (const row of text.split("\n")) {
      if (cols - row.length >= tail) return { value: pattern, index: rowStart + row.length, length: 0 };
      rowStart += row.length + 1;
    }
    return null;
  }
  let tries = 0;
  for (let at = text.indexOf(core); at >= 0 && tries < MAX_CANDIDATES; at = text.indexOf(core, at + 1)) {
    const end = at + core.length;
    const rowEndAt = text.indexOf("\n", end);
    const rowEnd = rowEndAt < 0 ? text.length : rowEndAt;
    const rowStart = text.lastIndexOf("\n", end - 1) + 1;
    const written = Math.min(tail, rowEnd - end);
    if (!/^ *$/.test(text.slice(end, end + written))) continue;
    if (end - rowStart + tail > cols) continue;
    tries++;
    if (!accept(at, core.length)) continue;
    return { value: pattern, index: at, length: core.length + written };
  }
  return null;
}

function re2Matcher(source: string, re: RE2JS): Matcher {
  return {
    source,
    engine: "re2",
    find(haystack, options) {
      const text = options?.screenCols === undefined ? haystack : dropTrailingBlankRows(haystack);
      // Most looks of a wait miss: test() runs RE2's DFA, several times faster than exec()'s capture engines.
      if (!re.test(text)) return null;
      if (options?.accept) return acceptedRe2(re, text, options.accept);
      const m = re.exec(text) as ((string | undefined)[] & { index: number }) | null;
      if (m === null) return null;
      return { value: Array.from(m, (g: string | undefined) => g ?? ""), index: m.index, length: m[0]!.length };
    },
    [Symbol.dispose]() {},
  };
}

/** The first RE2 match `accept` takes, trying successive matches (each from one past the last one's start). */
function acceptedRe2(re: RE2JS, text: string, accept: (index: number, length: number) => boolean): Found | null {
  const m = re.matcher(text);
  for (let start = 0, tries = 0; start <= text.length && tries < MAX_CANDIDATES && m.find(start); tries++) {
    const index = m.start();
    const length = m.end() - index;
    if (accept(index, length)) {
      const groups = Array.from({ length: m.groupCount() + 1 }, (_, g) => m.group(g) ?? "");
      return { value: groups, index, length };
    }
    start = index + 1;
  }
  return null;
}

function jsMatcher(source: string, flags: string): Matcher {
  const fallback = new RegexFallback(source, flags);
  return {
    source,
    engine: "js",
    async find(haystack, options) {
      const text = options?.screenCols === undefined ? haystack : dropTrailingBlankRows(haystack);
      const m = await fallback.exec(text, options?.budgetMs ?? DEFAULT_FALLBACK_BUDGET_MS);
      return m === null ? null : { value: m.match, index: m.index, length: m.match[0]!.length };
    },
    [Symbol.dispose]() {
      fallback[Symbol.dispose]();
    },
  };
}

function dropTrailingBlankRows(text: string): string {
  return text.replace(/\n+$/, "");
}
