/**
 * run_tests: `tui-tester test` inside the server, with a report the model can act on. The runner
 * comes with the server's context (ctx.runTests): it stands on run_script, above the catalog.
 */
import * as v from "valibot";
import { TuiError } from "../errors.ts";
import { annotations, defineTool } from "./define.ts";
import { clampedNumber, optionalBoolean, positiveInt } from "./schemas.ts";
import { N, shape, strings, unlisted } from "./output-shape.ts";

const DEFAULT_TIMEOUT_MS = 120_000;
const MAX_TIMEOUT_MS = 600_000;

export const runTestsTool = defineTool({
  name: "run_tests",
  output: shape(
    { passed: N, failed: N, failures: strings },
    unlisted<{
      flaky: number;
      skipped: number;
      notRun: number;
      total: number;
      durationMs: number;
      notRunTitles: string[];
      results: { title: string; status: string; durationMs: number; failure?: unknown }[];
    }>(),
  ),
  description:
    "Run test files as `tui-tester test`: counts, and per failure its step, row diff or missed wait, screen.",
  input: v.strictObject({
    paths: v.optional(
      v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.maxLength(100), v.description("*.test.ts: bun test.")),
    ),
    grep: v.optional(v.pipe(v.string(), v.maxLength(500), v.description("RegExp on titles."))),
    update: optionalBoolean(false, "Accept new goldens."),
    repeat: v.optional(positiveInt(20), 1),
    shard: v.optional(v.pipe(v.string(), v.description("i/n"))),
    timeoutMs: clampedNumber(1000, MAX_TIMEOUT_MS, DEFAULT_TIMEOUT_MS),
  }),
  annotations: annotations("Run tests", "write"),
  async run(args, ctx) {
    const shard = args.shard ? parseShard(args.shard) : undefined;
    const runTests = ctx.runTests;
    if (!runTests)
      throw new TuiError(
        "INVALID_ARGUMENT",
        "This server was built without the test runner, so run_tests cannot run here.",
        "Run the tests with `tui-tester test` instead.",
      );
    const run = await runTests(
      {
        paths: args.paths,
        grep: args.grep,
        update: args.update,
        repeat: args.repeat,
        shard,
        timeoutMs: args.timeoutMs,
        signal: ctx.signal,
        onTestEnd: (result, done, total) =>
          ctx.progress?.(`${done}/${total} ${result.status}: ${result.title}`, done, total),
      },
      ctx,
    );
    const failures = [
      ...run.results.filter((r) => r.status === "failed").map((r) => r.title),
      ...(run.bun?.failures.map((f) => f.title) ?? []),
    ];
    const [counts, ...details] = run.report.split("\n");
    const isError = failures.length > 0 || run.notRun.length > 0 || run.bun?.error !== undefined || run.bun?.timedOut;
    return {
      summary: counts!,
      isError,
      // an error's text starts with its code and fix, whichever channel a client reads
      ...(isError
        ? {
            failure: {
              code: "TESTS_FAILED",
              message: `${failures.length} failed, ${run.notRun.length} not run.`,
              hint: "Read each failure's step and screen below; fix the app or the test, or pass update: true to accept changed goldens.",
            },
          }
        : {}),
      data: {
        ...run.summary,
        failures,
        notRunTitles: run.notRun,
        results: run.results.map((r) => ({
          title: r.title,
          status: r.status,
          durationMs: r.durationMs,
          ...(r.failure ? { failure: r.failure } : {}),
        })),
      },
      parts: { blocks: details.length ? [details.join("\n").trim()] : [] },
    };
  },
});

function parseShard(text: string): { index: number; total: number } {
  const [index, total] = (/^(\d+)\/(\d+)$/.exec(text)?.slice(1).map(Number) ?? [0, 0]) as [number, number];
  if (total < 1 || index < 1 || index > total)
    throw new TuiError(
      "INVALID_ARGUMENT",
      `shard "${text.slice(0, 20)}" is not i/n with 1 <= i <= n.`,
      'Example: "2/3".',
    );
  return { index, total };
}
