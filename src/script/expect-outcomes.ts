/**
 * Script steps for what a program leaves behind: expect_exit (its exit code or the signal that
 * killed it) and expect_file (a file it wrote: exists, contains, equals, or matches a golden file,
 * with the masks screen goldens use). Both wait, bounded by timeoutMs, for the outcome to appear.
 */
import { isAbsolute, join, resolve } from "node:path";
import * as v from "valibot";
import { TuiError } from "../errors.ts";
import { expectExit } from "../lib/exit-expect.ts";
import { expectFile } from "../lib/file-expect.ts";
import { toView } from "../session/observe.ts";
import type { Session } from "../session/session.ts";
import { annotations, defineSessionTool, type ToolOutcome } from "../tools/define.ts";
import { ReplyError, viewParts } from "../tools/reply.ts";
import { clampedNumber, optionalBoolean, sessionId } from "../tools/schemas.ts";
import { maskSchema, toLibMasks } from "./expect-snapshot.ts";

const timeoutMs = (what: string) => clampedNumber(0, 600_000, 5000, what);

/** A failed outcome check, carrying the screen at the end so the text view shows what the program showed. */
async function failedWithScreen(session: Session, error: unknown, data: Record<string, unknown>): Promise<never> {
  if (!(error instanceof TuiError) || error.code !== "ASSERTION_FAILED") throw error;
  const view = toView(await session.emulator.settledSnapshot({ format: "text", highlights: true }));
  const details = { ...data, ...error.details };
  throw new ReplyError(error.code, error.message, error.hint ?? "", details, viewParts(view, "Screen at the end"));
}

export const expectExitStep = defineSessionTool({
  name: "expect_exit",
  description: "Wait for the program to exit; fails unless it exits with code (default 0), or is killed by signal.",
  input: v.strictObject({
    sessionId,
    code: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(255))),
    signal: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^(SIG)?[A-Za-z0-9]{2,10}$/, "a signal name such as SIGTERM"),
        v.description("e.g. SIGTERM"),
      ),
    ),
    timeoutMs: timeoutMs("How long the program may take to exit."),
  }),
  annotations: annotations("Expect exit", "read"),
  check(args) {
    if (args.code !== undefined && args.signal !== undefined)
      throw new TuiError(
        "INVALID_ARGUMENT",
        "expect_exit takes code or signal, not both (a process killed by a signal has no exit code).",
        "Keep the one you expect.",
      );
  },
  allowExited: true,
  async act(session, args, ctx): Promise<ToolOutcome> {
    const expected = args.signal !== undefined ? { signal: args.signal } : { code: args.code ?? 0 };
    try {
      const { exit, waitedMs } = await expectExit(session, {
        ...expected,
        timeoutMs: args.timeoutMs,
        abort: ctx.signal,
      });
      const how = exit.signal !== null ? `was killed by ${exit.signal}` : `exited with code ${exit.exitCode}`;
      return {
        summary: `The program ${how}, as expected (after ${waitedMs} ms)`,
        data: { exitCode: exit.exitCode, signal: exit.signal, waitedMs },
      };
    } catch (error) {
      return failedWithScreen(session, error, { expected });
    }
  },
});

export const expectFileStep = defineSessionTool({
  name: "expect_file",
  golden: (step) => (typeof step.golden === "string" ? step.golden : undefined),
  description:
    "Check a file the program wrote: exists (or not), contains a text, equals a text, or matches the golden file " +
    "<dir>/<golden> (masks as expect_snapshot); retried until timeoutMs. Fails with what differed.",
  input: v.strictObject({
    sessionId,
    path: v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description("Relative to the session's cwd.")),
    exists: optionalBoolean(true, "false: pass when there is no file."),
    contains: v.optional(v.pipe(v.string(), v.maxLength(100_000))),
    equals: v.optional(v.pipe(v.string(), v.maxLength(4 * 1024 * 1024))),
    golden: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "golden may hold letters, digits, '.', '_' and '-'"),
        v.description("Golden file name."),
      ),
    ),
    mask: v.optional(maskSchema),
    dir: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(4096))),
    update: v.optional(v.picklist(["none", "missing", "all"]), "none"),
    timeoutMs: timeoutMs("How long the file may take to be right."),
  }),
  annotations: annotations("Expect file", "read"),
  check(args) {
    toLibMasks(args.mask);
    if (!args.exists && (args.contains !== undefined || args.equals !== undefined || args.golden !== undefined))
      throw new TuiError(
        "INVALID_ARGUMENT",
        "expect_file with exists: false cannot also check contains, equals or golden.",
        "Use two steps, or drop exists: false.",
      );
  },
  allowExited: true,
  async act(session, args, ctx): Promise<ToolOutcome> {
    const cwd = session.config.cwd;
    const path = isAbsolute(args.path) ? args.path : resolve(cwd, args.path);
    const base =
      args.dir === undefined ? join(cwd, "__snapshots__") : isAbsolute(args.dir) ? args.dir : resolve(cwd, args.dir);
    const golden =
      args.golden === undefined
        ? undefined
        : {
            file: join(base, args.golden),
            update: args.update,
            hints: {
              missing: 'Pass update: "missing" to write it from the file (the CLI does so unless --ci).',
              mismatch: "If the new file is right, rerun the CLI with --update-snapshots.",
            },
          };
    const data = { path, ...(golden ? { golden: golden.file } : {}) };
    try {
      const outcome = await expectFile(session, {
        path,
        exists: args.exists,
        contains: args.contains,
        equals: args.equals,
        golden,
        mask: toLibMasks(args.mask),
        timeoutMs: args.timeoutMs,
        abort: ctx.signal,
      });
      const said = {
        absent: "is absent, as expected",
        matched: "is as expected",
        written: `was written to its golden ${golden?.file} (it was missing)`,
        updated: `updated its golden ${golden?.file}`,
        unchanged: `matches its golden (unchanged)`,
      }[outcome.status];
      return { summary: `File ${args.path} ${said}`, data: { ...data, ...outcome } };
    } catch (error) {
      return failedWithScreen(session, error, data);
    }
  },
});
