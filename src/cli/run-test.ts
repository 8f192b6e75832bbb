/**
 * One test: a fresh session from start_session's code, the steps through the run_script tool
 * itself (the same code path an agent's script takes), a time limit per attempt, retries, and a
 * session that is always stopped afterwards.
 */
import { basename } from "node:path";
import * as v from "valibot";
import { toTuiError } from "../errors.ts";
import { freshView, type ScreenView } from "../session/observe.ts";
import type { ServerContext } from "../tools/context.ts";
import type { ToolContext } from "../tools/define.ts";
import { runScriptTool } from "../catalog.ts";
import type { StepResult } from "../script/run-script.ts";
import { startSessionTool } from "../tools/session-tools.ts";
import { TEST_ENV_DEFAULTS } from "../script/test-from-history.ts";
import { stepsAsRun, type SnapshotUpdate, type TestCase } from "./load.ts";
import type { TestRecorder } from "./recording.ts";

export type RunnerDeps = ServerContext;

export interface Failure {
  code: string;
  message: string;
  hint?: string;
  /** Index of the failed step, when one failed (not for a timeout or a session that would not start). */
  step?: number;
  stepType?: string;
  stepLabel?: string;
  timedOut?: boolean;
}

export interface SnapshotNote {
  name: string;
  status: string;
  file: string;
}

export interface TestResult {
  title: string;
  file: string;
  name: string;
  status: "passed" | "failed" | "skipped";
  /** Passed, but only after a failed attempt. */
  flaky: boolean;
  attempts: number;
  durationMs: number;
  failure?: Failure;
  steps: StepResult[];
  stepsPlanned: number;
  /** The screen when the (last) attempt failed. */
  screen?: ScreenView;
  snapshots: SnapshotNote[];
  /** Asciicast of the failed attempt (--record-failures, --trace), or why there is none. */
  recording?: { path?: string; unavailable?: string; stepEndsMs?: number[] };
}

interface Attempt {
  ok: boolean;
  failure?: Failure;
  steps: StepResult[];
  screen?: ScreenView;
  snapshots: SnapshotNote[];
  recording?: TestResult["recording"];
}

export interface RunOptions {
  timeoutMs: number;
  retries: number;
  update: SnapshotUpdate;
  recorder?: TestRecorder;
}

export async function runTest(
  test: TestCase,
  options: RunOptions,
  deps: RunnerDeps,
  onRetry?: (attempt: number, failure?: Failure) => void,
): Promise<TestResult> {
  const started = performance.now();
  const base = { title: test.title, file: test.relFile, name: test.name, stepsPlanned: test.steps.length };
  if (test.skip)
    return { ...base, status: "skipped", flaky: false, attempts: 0, durationMs: 0, steps: [], snapshots: [] };
  const maxAttempts = 1 + (test.retries ?? options.retries);
  let attempt: Attempt | undefined;
  let attempts = 0;
  while (attempts < maxAttempts) {
    if (attempts > 0) onRetry?.(attempts + 1, attempt?.failure);
    attempts++;
    attempt = await runAttempt(test, options, deps, attempts);
    if (attempt.ok) break;
  }
  const final = attempt!;
  return {
    ...base,
    status: final.ok ? "passed" : "failed",
    flaky: final.ok && attempts > 1,
    attempts,
    durationMs: Math.round(performance.now() - started),
    steps: final.steps,
    snapshots: final.snapshots,
    ...(final.failure ? { failure: final.failure } : {}),
    ...(final.screen ? { screen: final.screen } : {}),
    ...(final.recording ? { recording: final.recording } : {}),
  };
}

async function runAttempt(test: TestCase, options: RunOptions, deps: RunnerDeps, attempt: number): Promise<Attempt> {
  const timeoutMs = test.timeoutMs ?? options.timeoutMs;
  const controller = new AbortController();
  const ctx: ToolContext = { ...deps, signal: controller.signal, rawArgs: undefined };
  let sessionId: string | undefined;
  let recording: ReturnType<TestRecorder["start"]> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stepEnds: number[] = [];
  const timedOut = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve("timeout");
    }, timeoutMs);
  });
  try {
    const run = async () => {
      const started = await startSessionTool.run(
        // hermetic unless the file opts out: a fresh HOME, no dotfiles, none of the runner's credentials
        { ...test.session, env: { ...TEST_ENV_DEFAULTS, ...test.session.env }, isolate: test.session.isolate ?? true },
        ctx,
      );
      sessionId = String(started.data.sessionId);
      // the attempt timed out while the session was starting: the finally below has already run
      if (controller.signal.aborted) await deps.sessions.stop(sessionId, "SIGKILL", 0).catch(() => undefined);
      recording = options.recorder?.start(deps.sessions.get(sessionId), test, attempt);
      // a wait that times out fails its step unless the step or the file's defaults say optional: true
      const rawArgs = {
        sessionId,
        steps: stepsAsRun(test, options.update),
        defaults: { optional: false, ...test.defaults },
      };
      const onStepEnd = (index: number) => void (stepEnds[index] = performance.now());
      return runScriptTool.run(v.parse(runScriptTool.input, rawArgs), { ...ctx, rawArgs, onStepEnd });
    };
    const running = run();
    running.catch(() => undefined); // after a timeout nobody awaits it; the session is stopped below
    const outcome = await Promise.race([running, timedOut]);
    if (outcome === "timeout") {
      const screen = sessionId ? await screenOf(deps, sessionId) : undefined;
      const failure: Failure = {
        code: "TIMEOUT",
        message:
          `The test did not finish within ${timeoutMs} ` + `ms${sessionId ? "" : " (the session was still starting)"}.`,
        hint: 'Raise --timeout or the test\'s "timeoutMs", or look at the screen below for what the app was doing.',
        timedOut: true,
      };
      return {
        ok: false,
        failure,
        steps: [],
        snapshots: [],
        ...(screen ? { screen } : {}),
        recording: recording?.finish(false),
      };
    }
    const data = outcome.data as { ok: boolean; results: StepResult[]; finalSnapshot: ScreenView };
    const steps = data.results.map(trimStep);
    const failed = steps.find((s) => !s.ok);
    const failure: Failure | undefined = failed
      ? {
          code: failed.error?.code ?? "ASSERTION_FAILED",
          message: failed.error?.message ?? "The step failed.",
          ...(failed.error?.hint ? { hint: failed.error.hint } : {}),
          step: failed.index,
          stepType: failed.type,
          ...(failed.label ? { stepLabel: failed.label } : {}),
        }
      : undefined;
    return {
      ok: data.ok,
      failure,
      steps,
      snapshots: snapshotNotes(steps),
      ...(data.ok ? {} : { screen: data.finalSnapshot }),
      recording: recording?.finish(data.ok, stepEnds),
    };
  } catch (thrown) {
    // start_session failed (SPAWN_FAILED, LIMIT_REACHED) or something unexpected
    const error = toTuiError(thrown);
    const screen = sessionId ? await screenOf(deps, sessionId) : undefined;
    return {
      ok: false,
      failure: { code: error.code, message: error.message, ...(error.hint ? { hint: error.hint } : {}) },
      steps: [],
      snapshots: [],
      ...(screen ? { screen } : {}),
      recording: recording?.finish(false),
    };
  } finally {
    clearTimeout(timer);
    controller.abort();
    if (sessionId) await deps.sessions.stop(sessionId, "SIGHUP", 1000).catch(() => undefined);
  }
}

async function screenOf(deps: RunnerDeps, sessionId: string): Promise<ScreenView | undefined> {
  try {
    return await freshView(deps.sessions.get(sessionId));
  } catch {
    return undefined;
  }
}

/** Reports keep what a reader needs: every step's outcome, details only where a step failed or compared a golden. */
function trimStep(step: StepResult): StepResult {
  const keep = !step.ok || step.type === "expect_snapshot" || step.type === "expect_file";
  const { result, ...rest } = step;
  if (!keep || !result) return rest;
  const { screen: _screen, actual: _actual, ...small } = result;
  return { ...rest, result: small };
}

/** The goldens the steps compared or wrote: expect_snapshot's screens and expect_file's files. */
function snapshotNotes(steps: StepResult[]): SnapshotNote[] {
  return steps.flatMap((s): SnapshotNote[] => {
    const r = s.result;
    if (s.type === "expect_snapshot" && r?.file !== undefined)
      return [{ name: String(r.name), status: String(r.status), file: String(r.file) }];
    if (s.type === "expect_file" && typeof r?.golden === "string")
      return [{ name: basename(r.golden), status: String(r.status), file: r.golden }];
    return [];
  });
}
