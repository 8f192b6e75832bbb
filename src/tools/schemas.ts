/** Shared valibot fragments. Flat, strict, defaults in the schema so JSON Schema and behaviour agree. */
import * as v from "valibot";
import { DEFAULT_MAX_SCROLLBACK_LINES } from "../term/snapshot.ts";

export const clamp = (value: number, min: number, max: number): number => Math.min(max, Math.max(min, value));

/** A number silently clamped into [min, max] (the reference clamps rather than rejects). */
export function clampedNumber(min: number, max: number, fallback: number, description: string) {
  return v.optional(
    v.pipe(
      v.number(),
      // the description must come before the transform, which JSON Schema cannot express
      v.description(`${description} Clamped to ${min}-${max}.`),
      v.transform((n) => clamp(n, min, max)),
    ),
    fallback,
  );
}

export function optionalBoolean(fallback: boolean, description: string) {
  return v.optional(v.pipe(v.boolean(), v.description(description)), fallback);
}

/** The id start_session returned (described once, in start_session's description). */
export const sessionId = v.string();

export const positiveInt = (max: number, description?: string) =>
  description ? v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max), v.description(description)) : v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(max));

export const keySpecObject = v.strictObject({
  key: v.pipe(v.string(), v.minLength(1)),
  ctrl: v.optional(v.boolean()),
  shift: v.optional(v.boolean()),
  alt: v.optional(v.boolean()),
  meta: v.optional(v.boolean()),
});

/** One key: a chord string or an object (described once, where the field is). */
export const keySpec = v.union([v.pipe(v.string(), v.minLength(1)), keySpecObject]);

export const KEY_DESCRIPTION = 'Chord such as "ctrl+c", "shift+tab", "alt+enter", "F5", "space", "A" (shift+a), or { key, ctrl?, shift?, alt?, meta? }.';

export const patternEntries = {
  pattern: v.pipe(v.string(), v.minLength(1), v.description("Literal substring, or a RegExp source when regex is true.")),
  regex: optionalBoolean(false, "Treat pattern as a RegExp source."),
  regexFlags: v.optional(v.pipe(v.string(), v.regex(/^[dimsuv]*$/, "regexFlags may only contain d, i, m, s, u, v"), v.description("RegExp flags such as \"i\" or \"ms\" (regex only).")), ""),
};

export const waitEntries = {
  ...patternEntries,
  timeoutMs: clampedNumber(10, 600_000, 5000, "Max time to wait in ms."),
  pollIntervalMs: clampedNumber(10, 5000, 50, "Max ms between checks; matches are also seen on every screen update."),
  matchScreen: optionalBoolean(true, "false: match the raw PTY output instead of the screen."),
};

export const waitForSchema = v.strictObject({
  ...waitEntries,
  errorOnTimeout: optionalBoolean(false, "Return an error result when the pattern does not appear in time."),
});

export const screenDetail = v.optional(
  v.pipe(v.picklist(["full", "diff"]), v.description("diff: changed rows and cursor only, no screen. Default TUI_TESTER_SCREEN_DETAIL, else full.")),
);

/** Options every input tool accepts: before/after capture, settle, inline wait. */
export const observeEntries = {
  captureScreen: optionalBoolean(true, "Return the screen after the input with the changed rows."),
  waitAfterMs: v.optional(
    v.pipe(
      v.number(),
      v.description("Fixed settle time in ms before the after-screen (0-5000). Omitted: adaptive, until output is quiet for 100 ms after the app responds, at most 500 ms; the result says waitedMs and quiet. Ignored with waitFor."),
      v.transform((n) => clamp(n, 0, 5000)),
    ),
  ),
  waitFor: v.optional(v.pipe(waitForSchema, v.description("Wait for this text after the input; the after-screen is the frame where it first matched."))),
  screenDetail,
};

export const snapshotFormat = v.optional(v.pipe(v.picklist(["text", "ansi", "cells", "all"]), v.description("text (default), ansi (SGR-coloured), cells (runs of equal attributes per row) or all.")), "text");

export const scrollbackEntries = {
  includeScrollback: optionalBoolean(false, "Also return every line in the buffer (scrollback + screen)."),
  maxScrollbackLines: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(1_000_000), v.description("Cap on scrollback lines returned; the tail is kept.")), DEFAULT_MAX_SCROLLBACK_LINES),
};
