/** Shared valibot fragments. Flat, strict, defaults in the schema so JSON Schema and behaviour agree. */
import * as v from "valibot";
import { DEFAULT_MAX_SCROLLBACK_LINES } from "../term/snapshot.ts";

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** A number silently clamped into [min, max] (the reference clamps rather than rejects). */
export function clampedNumber(min: number, max: number, fallback: number, description?: string) {
  return v.optional(
    v.pipe(
      v.number(),
      // the description must come before the transform, which JSON Schema cannot express
      v.description(`${description ? `${description} ` : ""}Clamped to ${min}-${max}.`),
      v.transform((n) => clamp(n, min, max)),
    ),
    fallback,
  );
}

/** A boolean with a default; undescribed when its name and default say it all. */
export function optionalBoolean(fallback: boolean, description?: string) {
  return v.optional(description ? v.pipe(v.boolean(), v.description(description)) : v.boolean(), fallback);
}

/** The id start_session returned (described once, in start_session's description). */
export const sessionId = v.string();

export const positiveInt = (max: number, description?: string) =>
  description
    ? v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max), v.description(description))
    : v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max));

export const keySpecObject = v.strictObject({
  key: v.pipe(v.string(), v.minLength(1)),
  ctrl: v.optional(v.boolean()),
  shift: v.optional(v.boolean()),
  alt: v.optional(v.boolean()),
  meta: v.optional(v.boolean()),
});

/**
 * tools/list shows `listed` instead of the schema's own JSON form: one type per field, which
 * single-type function-calling dialects (Gemini's, OpenAI strict mode) require. The schema itself
 * still accepts the older forms it lists (compat), so callers of the earlier version keep working.
 */
export function listedAs<S extends v.GenericSchema>(schema: S, listed: Record<string, unknown>) {
  return v.pipe(schema, v.metadata({ listed }));
}

/** One key: a chord string, listed as such; the original's { key, ctrl, shift, alt, meta } object is still accepted. */
export const keySpec = listedAs(v.union([v.pipe(v.string(), v.minLength(1)), keySpecObject]), {
  type: "string",
  minLength: 1,
});

export const KEY_DESCRIPTION = 'A chord such as "ctrl+c", "shift+tab", "alt+x", "F5", "space", "A" (shift+a).';

export const patternEntries = {
  pattern: v.pipe(
    v.string(),
    v.minLength(1),
    v.description("Literal substring, or a RegExp source when regex is true."),
  ),
  regex: optionalBoolean(false),
  regexFlags: v.optional(
    v.pipe(v.string(), v.regex(/^[dimsuv]*$/, "regexFlags may only contain d, i, m, s, u, v")),
    "",
  ),
};

export const waitEntries = {
  ...patternEntries,
  pattern: v.optional(patternEntries.pattern),
  anyOf: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.minLength(1))),
      v.minLength(1),
      v.maxLength(32),
      v.description("Instead of pattern: the first of these to appear."),
    ),
  ),
  timeoutMs: clampedNumber(10, 600_000, 5000),
  // matches are also seen on every screen update; this only bounds the gap between checks
  pollIntervalMs: clampedNumber(10, 5000, 50),
  matchScreen: optionalBoolean(true, "false: match raw PTY output."),
  after: v.optional(v.pipe(v.picklist(["input"]), v.description("Only text new since the last input."))),
  matchEcho: v.optional(v.pipe(v.boolean(), v.description("true: the echo of typed text may match."))),
};

export const waitForSchema = v.strictObject({
  ...waitEntries,
  errorOnTimeout: optionalBoolean(false, "Error result on timeout, not matched: false."),
});

export const screenDetail = v.optional(
  v.pipe(
    v.picklist(["auto", "full", "diff"]),
    v.description(
      "auto: the rows changed since the screen last shown, or the screen when most changed; full: the screen; " +
        "diff: rows changed by the input, no screen. Default: TUI_TESTER_SCREEN_DETAIL or auto.",
    ),
  ),
);

/** Options every input tool accepts: before/after capture, settle, inline wait. */
export const observeEntries = {
  captureScreen: optionalBoolean(true, "false: no changed rows or screen."),
  waitAfterMs: v.optional(
    v.pipe(
      v.number(),
      v.description(
        "Fixed settle before the after-screen, 0-5000 ms. Omitted: until the program " +
          "waits for input again, at most 2 s. Ignored with waitFor.",
      ),
      v.transform((n) => clamp(n, 0, 5000)),
    ),
  ),
  waitFor: v.optional(
    v.pipe(
      waitForSchema,
      v.description("Wait for this text after the input; the after-screen is the frame where it matched."),
    ),
  ),
  screenDetail,
};

export const snapshotFormat = v.optional(v.picklist(["text", "ansi", "cells", "all"]), "text");

export const scrollbackEntries = {
  includeScrollback: optionalBoolean(false),
  maxScrollbackLines: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000), v.description("The newest are kept.")),
    DEFAULT_MAX_SCROLLBACK_LINES,
  ),
};
