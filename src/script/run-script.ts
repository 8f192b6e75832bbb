/** run_script: an ordered list of steps run inside the server, so no transient state is missed. */
import * as v from "valibot";
import type { MonitorReport } from "../monitor/monitor.ts";
import { cancelled, toTuiError, TuiError } from "../errors.ts";
import { compileAll, type WaitTextOptions } from "../session/wait.ts";
import { freshView } from "../session/observe.ts";
import type { Session } from "../session/session.ts";
import { annotations, defineSessionTool, type SessionToolDef, type ToolContext } from "../tools/define.ts";
import { monitorEntries, monitorParts } from "../tools/monitor-tools.ts";
import { defaultParts, errorParts, fieldsWithout, type ReplyParts } from "../tools/reply.ts";
import { partLines } from "../tools/render-text.ts";
import { scriptParts, type StepLine } from "./script-reply.ts";
import { applyCompat, describeIssues } from "../tools/args.ts";
import { errorSummary } from "../util/clip.ts";
import { optionalBoolean, screenDetail, sessionId } from "../tools/schemas.ts";
import { forgetShown, noteShown } from "../tools/shown-screen.ts";
import { withDefaults, type ScriptDefaults } from "./steps.ts";
import {
  B,
  list,
  monitorReportFields,
  N,
  nested,
  NN,
  S,
  shape,
  stepShape,
  unlisted,
  viewShape,
} from "../tools/output-shape.ts";

/** One step's entry in run_script's `results` (and in `tui-tester test`'s report). */
export interface StepResult extends StepLine {
  result?: Record<string, unknown>;
}

/** run_script over its step types: the scriptable tools plus sleepStep and assertTextStep. */
export function makeRunScript(stepTools: SessionToolDef[]) {
  const tools = new Map<string, SessionToolDef>(stepTools.map((t) => [t.name, t]));
  const names = [...tools.keys()];
  // Steps are not inlined per tool in the JSON Schema (tools/list would carry every tool twice):
  // each step is checked here against its own tool's schema before the first step runs.
  const step = v.looseObject({
    type: v.picklist(names),
    label: v.optional(v.pipe(v.string(), v.maxLength(200), v.description("Echoed in the step's result."))),
    continueOnError: v.optional(v.pipe(v.boolean(), v.description("Keep going when this step fails."))),
    optional: v.optional(
      v.pipe(
        v.boolean(),
        v.description("The step's wait (wait_for_text, or an inline waitFor) may time out without failing it."),
      ),
    ),
  });

  return defineSessionTool({
    name: "run_script",
    output: shape(
      {
        ok: B,
        stepsRun: N,
        stoppedAtStep: NN,
        durationMs: N,
        results: list(stepShape),
        monitor: nested(monitorReportFields),
        rawOutput: nested({ bytes: N, output: S, truncated: B }),
        finalSnapshot: viewShape,
      },
      unlisted<{ stepsPlanned: number }>(),
    ),
    description:
      "Run steps in order inside the server. A step is {type, ...that tool's arguments minus sessionId}, or " +
      "sleep {durationMs}, assert_text {pattern, regex, regexFlags, negate, matchScreen, timeoutMs, excerptBytes, " +
      "includeText} (on screen; absent with negate; timeoutMs retries), " +
      "expect_snapshot {name, format, region, mask, dir, update, timeoutMs} (vs golden <dir>/<name>.txt), " +
      "expect_exit {code, signal, timeoutMs}, expect_file {path, exists, contains, equals, golden, mask, timeoutMs}. " +
      "Validated first; wait_for_text fails on timeout. ok: false is an error result with all step results.",
    input: v.strictObject({
      sessionId,
      steps: v.pipe(v.array(step), v.minLength(1), v.maxLength(1000)),
      defaults: v.optional(
        v.pipe(
          v.strictObject({
            timeoutMs: v.optional(v.number()),
            pollIntervalMs: v.optional(v.number()),
            captureScreen: v.optional(v.boolean()),
            waitAfterMs: v.optional(v.number()),
            screenDetail,
            optional: v.optional(v.pipe(v.boolean(), v.description("Timed-out waits pass (a step may set it too)."))),
          }),
          v.description("For every step that has the option and does not set it."),
        ),
        {},
      ),
      monitor: v.optional(
        v.pipe(
          v.strictObject(monitorEntries),
          v.description("Record frames for the whole script (start_monitor's arguments)."),
        ),
      ),
      includeRawOutput: optionalBoolean(false, "Raw output written during the script."),
      rawOutputMaxBytes: v.optional(
        v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16 * 1024 * 1024)),
        65_536,
      ),
      returnFinalSnapshot: optionalBoolean(true),
      stopOnError: optionalBoolean(true),
    }),
    compat: { rawOutputTailBytes: "rawOutputMaxBytes" },
    annotations: annotations("Run script", "write", false),
    allowExited: true,
    check(args) {
      // Every step's own schema and checks before anything is sent (the CLI runs this on test files before any
      // session starts).
      for (const [index, raw] of (args.steps as Record<string, unknown>[]).entries())
        planStep(tools, raw, index, "tui-check", {});
    },
    async act(session, args, ctx) {
      const defaults: ScriptDefaults = args.defaults;
      const planned = (args.steps as Record<string, unknown>[]).map((raw, index) =>
        planStep(tools, raw, index, session.id, defaults),
      );
      return runPlanned(session, planned, args, ctx);
    },
  });
}

/** One raw step -> its tool and parsed arguments (script defaults merged in), or an error naming the step. */
function planStep(
  tools: Map<string, SessionToolDef>,
  raw: Record<string, unknown>,
  index: number,
  id: string,
  defaults: ScriptDefaults,
) {
  const tool = tools.get(String(raw.type))!;
  const {
    type: _t,
    label,
    continueOnError,
    optional,
    ...rest
  } = applyCompat(tool.compat, raw) as Record<string, unknown>;
  const parsed = v.safeParse(
    tool.input,
    withDefaults(tool, { ...rest, sessionId: id }, defaults, optional as boolean | undefined),
  );
  if (!parsed.success) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `steps[${index}] (${tool.name}): ${describeIssues(parsed.issues, tool.input)}.`,
      `A ${tool.name} step takes ${
        !tool.scriptable
          ? "the arguments in the run_script description"
          : `the ${tool.name} tool's arguments without sessionId`
      }; check the script defaults too.`,
    );
  }
  try {
    tool.check?.(parsed.output);
    const waitFor = (parsed.output as { waitFor?: WaitTextOptions }).waitFor;
    if (waitFor) for (const m of compileAll(waitFor)) m[Symbol.dispose]();
  } catch (error) {
    const e = toTuiError(error);
    throw new TuiError(e.code, `steps[${index}] (${tool.name}): ${e.message}`, e.hint);
  }
  return { tool, args: parsed.output, label: label as string | undefined, continueOnError: continueOnError === true };
}

async function runPlanned(
  session: Session,
  planned: { tool: SessionToolDef; args: Record<string, unknown>; label?: string; continueOnError: boolean }[],
  options: {
    monitor?: v.InferOutput<v.StrictObjectSchema<typeof monitorEntries, undefined>>;
    includeRawOutput: boolean;
    rawOutputMaxBytes: number;
    returnFinalSnapshot: boolean;
    stopOnError: boolean;
  },
  ctx: ToolContext,
) {
  const started = performance.now();
  const rawAtStart = session.raw.total;
  const monitor = options.monitor ? ctx.monitors.start(session, options.monitor) : undefined;
  const results: StepResult[] = [];
  const rendered: { step: StepResult; parts: ReplyParts }[] = [];
  let stoppedAtStep: number | null = null;
  let monitorReport: MonitorReport | undefined;
  try {
    for (const [index, step] of planned.entries()) {
      // Yield between steps so other sessions and requests (pings, stop_session) are served.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (ctx.signal.aborted) throw cancelled("run_script");
      const stepStart = performance.now();
      const base = { index, type: step.tool.name, ...(step.label !== undefined ? { label: step.label } : {}) };
      try {
        if (!step.tool.allowExited) session.assertRunning();
        const outcome = await step.tool.act(session, step.args, ctx);
        const { sessionId: _s, ...result } = outcome.data;
        ctx.onStepEnd?.(index);
        const elapsedMs = Math.round(performance.now() - stepStart);
        const parts = defaultParts(outcome);
        // An error result that carries its whole result (wait_for_text's timeout) fails the step like a throw.
        const failed = outcome.error
          ? { ok: false, error: errorSummary(outcome.error) }
          : { ok: true, summary: outcome.summary };
        results.push({ ...base, ...failed, elapsedMs, result });
        rendered.push({ step: results.at(-1)!, parts });
        if (!outcome.error) continue;
      } catch (thrown) {
        const error = toTuiError(thrown);
        if (error.code === "CANCELLED") throw error;
        const { sessionId: _s, ...details } = error.details ?? {};
        ctx.onStepEnd?.(index);
        results.push({
          ...base,
          ok: false,
          elapsedMs: Math.round(performance.now() - stepStart),
          ...(error.details ? { result: details } : {}),
          error: errorSummary(error),
        });
        const parts = errorParts(error) ?? {};
        rendered.push({ step: results.at(-1)!, parts });
      }
      if (options.stopOnError && !step.continueOnError) {
        stoppedAtStep = index;
        break;
      }
    }
  } finally {
    // the monitor is released even when the script is cancelled
    monitorReport = monitor ? ctx.monitors.release(monitor) : undefined;
  }
  const ok = results.every((r) => r.ok) && stoppedAtStep === null;
  const durationMs = Math.round(performance.now() - started);
  const produced = session.raw.total - rawAtStart;
  const rawBytes = options.includeRawOutput
    ? session.raw.tail(Math.min(produced, options.rawOutputMaxBytes))
    : undefined;
  const finalView = options.returnFinalSnapshot ? await freshView(session) : undefined;
  const data = {
    sessionId: session.id,
    ok,
    stepsPlanned: planned.length,
    stepsRun: results.length,
    stoppedAtStep,
    durationMs,
    results,
    ...(monitorReport ? { monitor: monitorReport } : {}),
    ...(rawBytes
      ? {
          rawOutput: {
            bytes: produced,
            output: new TextDecoder().decode(rawBytes),
            truncated: rawBytes.length < produced,
          },
        }
      : {}),
    ...(finalView ? { finalSnapshot: finalView } : {}),
  };
  const failed = results.filter((r) => !r.ok);
  const summary = ok
    ? `Script ok: ${results.length}/${planned.length} steps in ${data.durationMs} ms`
    : `Script failed: ${failed
        .map((r) => `step ${r.index} (${r.type}${r.label ? ` "${r.label}"` : ""}): ${r.error?.message}`)
        .join("; ")}; ran ${results.length}/${planned.length}`;
  const fields = fieldsWithout(data, "results", "finalSnapshot", "monitor");
  const parts = scriptParts(fields, rendered, finalView);
  // The steps' screens were shown as changed rows at most: the model has the final screen, or none whole.
  if (finalView) noteShown(session, finalView);
  else forgetShown(session);
  if (monitorReport)
    parts.lines = [
      ...(parts.lines ?? []),
      "Monitor:",
      ...partLines(monitorParts(monitorReport)).map((line) => `  ${line}`),
    ];
  return { summary, data, parts, isError: !ok, ...(failed[0]?.error ? { failure: failed[0].error } : {}) };
}
