/**
 * expect_snapshot: compare the screen (or a region of it) with a golden file, <dir>/<name>.txt or
 * .ansi. The screen may take up to timeoutMs to match (it is compared again on every parsed
 * write), so a step right after an input does not race the redraw. Files are written only when
 * asked: update "missing" (the CLI's default) writes absent goldens, "all" rewrites them.
 */
import { isAbsolute, join, resolve } from "node:path";
import * as v from "valibot";
import { TuiError } from "../errors.ts";
import { compareGolden } from "../lib/golden.ts";
import { MASK_CHAR, type Mask } from "../lib/mask.ts";
import { annotations, defineSessionTool, type ToolOutcome } from "../tools/define.ts";
import { clampedNumber, sessionId } from "../tools/schemas.ts";
import { ReplyError } from "../tools/reply.ts";

const region = v.strictObject({
  row: v.pipe(v.number(), v.integer(), v.minValue(0), v.description("First screen row (0-based).")),
  col: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.description("First column (0-based).")), 0),
  rows: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Row count. Default: to the bottom."))),
  cols: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.description("Column count. Default: to the right edge.")),
  ),
});

const maskRegion = v.strictObject({
  row: v.pipe(v.number(), v.integer(), v.minValue(0)),
  col: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  rows: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  cols: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

export const maskSchema = v.pipe(
  v.array(
    v.union([
      v.strictObject({
        regex: v.pipe(v.string(), v.minLength(1), v.maxLength(1000)),
        flags: v.optional(v.pipe(v.string(), v.regex(/^[imsu]*$/, "flags may only contain i, m, s, u"))),
      }),
      v.strictObject({ region: maskRegion }),
    ]),
  ),
  v.maxLength(100),
  v.description(
    `Replaced by "${MASK_CHAR}" in golden and screen before comparing: { regex, ` +
      `flags? } (each match on a row becomes one ${MASK_CHAR}) or { region: { row, ` +
      `col, rows (1), cols (to the edge) } } (one per cell), in screen coordinates.`,
  ),
);

export type StepMask = v.InferOutput<typeof maskSchema>[number];

/** The step's masks as the library's (RegExp or rectangle); a bad regex is an INVALID_REGEX before anything runs. */
export function toLibMasks(masks: StepMask[] | undefined): Mask[] {
  return (masks ?? []).map((mask) => {
    if ("region" in mask) return mask.region;
    try {
      return new RegExp(mask.regex, mask.flags ?? "");
    } catch (error) {
      throw new TuiError(
        "INVALID_REGEX",
        `mask regex /${mask.regex.slice(0, 100)}/: ${(error as Error).message.slice(0, 200)}`,
        "Fix the pattern, or mask a region instead.",
      );
    }
  });
}

export const expectSnapshotStep = defineSessionTool({
  name: "expect_snapshot",
  golden: (step) => `${String(step.name)}.${step.format === "ansi" ? "ansi" : "txt"}`,
  description:
    "Compare the screen (or a region) with the golden file <dir>/<name>.txt (.ansi " +
    "with format ansi); fails with a row diff. Writes files only with update " +
    '"missing" or "all".',
  input: v.strictObject({
    sessionId,
    name: v.pipe(
      v.string(),
      v.regex(
        /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/,
        "name may hold letters, digits, '.', '_' and '-' (it becomes a file name)",
      ),
      v.description("Snapshot name, the golden file's base name."),
    ),
    format: v.optional(
      v.pipe(
        v.picklist(["text", "ansi"]),
        v.description("text (default) or ansi (SGR colours and attributes per row)."),
      ),
      "text",
    ),
    region: v.optional(
      v.pipe(region, v.description("Compare only this rectangle, e.g. to leave out a clock or spinner.")),
    ),
    dir: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(4096),
        v.description("Directory of golden files, relative to the session's cwd. Default __snapshots__."),
      ),
    ),
    update: v.optional(
      v.pipe(
        v.picklist(["none", "missing", "all"]),
        v.description("none: compare only. missing: write the file when absent. all: rewrite it."),
      ),
      "none",
    ),
    timeoutMs: clampedNumber(0, 600_000, 5000, "How long the screen may take to match before the step fails."),
    mask: v.optional(maskSchema),
  }),
  annotations: annotations("Expect snapshot", "read"),
  check: (args) => void toLibMasks(args.mask),
  allowExited: true,
  async act(session, args, ctx): Promise<ToolOutcome> {
    const base =
      args.dir === undefined
        ? join(session.config.cwd, "__snapshots__")
        : isAbsolute(args.dir)
          ? args.dir
          : resolve(session.config.cwd, args.dir);
    const file = join(base, `${args.name}.${args.format === "ansi" ? "ansi" : "txt"}`);
    const data = { name: args.name, file, format: args.format, ...(args.region ? { region: args.region } : {}) };
    const hints = {
      missing: 'Pass update: "missing" to write it from the current screen (the CLI does so unless --ci).',
      mismatch:
        args.update === "none"
          ? 'If the new screen is right, rerun the CLI with --update-snapshots (or pass update: "all").'
          : "If the new screen is right, rerun with --update-snapshots.",
    };
    try {
      const result = await compareGolden(session, {
        ...args,
        mask: toLibMasks(args.mask),
        file,
        hints,
        signal: ctx.signal,
      });
      const said = {
        matched: `matches (${result.rows} rows)`,
        written: `written (it was missing): ${file}`,
        updated: `updated: ${file}`,
        unchanged: `unchanged: ${file}`,
      }[result.status];
      return { summary: `Snapshot "${args.name}" ${said}`, data: { ...data, ...result } };
    } catch (error) {
      // The step's error carries which golden it was, as its result would.
      // Its text: the status, and the screen now when there is no golden (a mismatch's message has the row diff).
      if (error instanceof TuiError && error.code === "ASSERTION_FAILED") {
        const details: Record<string, unknown> = { ...data, ...error.details };
        const actual = Array.isArray(details.actual) ? ["Screen now:", details.actual.join("\n")] : [];
        throw new ReplyError(error.code, error.message, error.hint ?? "", details, {
          fields: { status: details.status },
          blocks: actual,
        });
      }
      throw error;
    }
  },
});
