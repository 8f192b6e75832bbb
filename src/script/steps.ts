/**
 * run_script steps are the scriptable tools' own inputs minus sessionId, tagged with `type`,
 * plus two script-only steps: sleep and assert_text.
 */
import * as v from "valibot";
import { cancelled, TuiError } from "../errors.ts";
import { compileMatcher } from "../session/matcher.ts";
import type { Session } from "../session/session.ts";
import { annotations, defineSessionTool, type SessionToolDef, type ToolOutcome } from "../tools/define.ts";
import { inputReply } from "../tools/input-reply.ts";
import { waitLines } from "../tools/wait-lines.ts";
import { mergeParts, ReplyError, viewParts } from "../tools/reply.ts";
import { toView } from "../session/observe.ts";
import { watchChanges } from "../lib/change-watch.ts";
import { clampedNumber, observeEntries, optionalBoolean, patternEntries, sessionId } from "../tools/schemas.ts";

export const sleepStep = defineSessionTool({
  name: "sleep",
  description: "Pause the script for durationMs; the screen block spans the pause.",
  input: v.strictObject({ sessionId, durationMs: clampedNumber(0, 600_000, 100, "Pause in ms."), ...observeEntries }),
  annotations: annotations("Sleep", "read"),
  allowExited: true,
  act(session, args, ctx) {
    const waitAfterMs = args.waitAfterMs ?? 0;
    return inputReply(
      session,
      { ...args, waitAfterMs },
      ctx,
      async () => {
        const started = performance.now();
        const ended = await pauseUnlessEnded(session, args.durationMs, ctx.signal);
        if (ended === "cancelled") throw cancelled("run_script");
        return {
          sleptMs: Math.round(performance.now() - started),
          ...(ended === "exited" ? { endedEarly: "session exited" } : {}),
        };
      },
      (r) => `Slept ${r.sleptMs} ms${r.endedEarly ? " (ended early: the session exited)" : ""}`,
    );
  },
});

/** Sleep that ends at once when the session exits (stop_session) or the client cancels the request. */
function pauseUnlessEnded(
  session: Session,
  ms: number,
  signal: AbortSignal,
): Promise<"slept" | "exited" | "cancelled"> {
  if (signal.aborted) return Promise.resolve("cancelled");
  if (!session.running) return Promise.resolve("exited");
  return new Promise((resolve) => {
    const timer = setTimeout(() => done("slept"), ms);
    const unsubscribe = session.onExit(() => done("exited"));
    const onAbort = () => done("cancelled");
    signal.addEventListener("abort", onAbort, { once: true });
    function done(how: "slept" | "exited" | "cancelled") {
      clearTimeout(timer);
      unsubscribe();
      signal.removeEventListener("abort", onAbort);
      resolve(how);
    }
  });
}

/** How long assert_text retries in a test file (`tui-tester test`, run_tests) when neither the step nor the file says. */
export const TEST_ASSERT_TIMEOUT_MS = 5000;

export const assertTextStep = defineSessionTool({
  name: "assert_text",
  history: "check",
  description:
    "Check that a pattern is on the screen (or raw output), or absent with negate: true; with timeoutMs, retry on " +
    "every screen update until it holds. Fails the step otherwise.",
  input: v.strictObject({
    sessionId,
    ...patternEntries,
    negate: optionalBoolean(false, "Pass when the pattern is absent."),
    matchScreen: optionalBoolean(true, "Match the visible screen; false matches raw output."),
    timeoutMs: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(600_000),
        v.description("Retry until it holds this long. Default 0 (once); test files 5000."),
      ),
      0,
    ),
    excerptBytes: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.maxValue(100_000),
        v.description("Characters of context around the match. 0 omits the excerpt."),
      ),
      200,
    ),
    includeText: optionalBoolean(false, "Echo the whole haystack back."),
  }),
  annotations: annotations("Assert text", "read"),
  check: (args) => void compileMatcher(args),
  allowExited: true,
  async act(session: Session, args, ctx): Promise<ToolOutcome> {
    using matcher = compileMatcher(args);
    const started = performance.now();
    const deadline = started + args.timeoutMs;
    const wanted = !args.negate;
    // Read a whole frame (parser caught up, no synchronized update half drawn), look, and when it does not hold yet
    // look again on the next parsed write: the screen can only change then.
    let haystack: string;
    let found: Awaited<ReturnType<typeof matcher.find>>;
    let looks = 0;
    using changes = watchChanges(session);
    for (;;) {
      if (ctx.signal.aborted) throw cancelled("assert_text");
      haystack = await readHaystack(session, args.matchScreen, args.timeoutMs > 0);
      found = await matcher.find(haystack, args.matchScreen ? { screenCols: session.emulator.cols } : {});
      looks++;
      const left = deadline - performance.now();
      if ((found !== null) === wanted || left <= 0 || !session.running) break;
      await changes.next(left, ctx.signal);
    }
    const waitedMs = Math.round(performance.now() - started);
    const passed = args.negate ? found === null : found !== null;
    const data: Record<string, unknown> = {
      passed,
      matched: found !== null,
      match: found?.value ?? null,
      pattern: args.pattern,
      matchedAgainst: args.matchScreen ? "screen" : "raw",
      negated: args.negate,
      textLength: haystack.length,
      ...(args.timeoutMs > 0 ? { waitedMs, looks } : {}),
    };
    if (args.excerptBytes > 0) {
      const half = Math.floor(args.excerptBytes / 2);
      const at = found ? found.index : 0;
      data.excerpt =
        found || !args.negate
          ? haystack.slice(Math.max(0, at - half), at + (found?.length ?? 0) + half)
          : haystack.slice(0, args.excerptBytes);
    }
    if (args.includeText) data.text = haystack;
    if (!passed && args.timeoutMs === 0) {
      throw new TuiError(
        "ASSERTION_FAILED",
        args.negate
          ? `"${args.pattern}" is present but should be absent.`
          : `"${args.pattern}" is not on the ${data.matchedAgainst}.`,
        "See details.excerpt (or pass includeText: true) for what was there.",
        data,
      );
    }
    if (!passed) {
      const ended = session.running ? "" : ", the process exited";
      const how = `after waiting ${waitedMs} ms (timeoutMs ${args.timeoutMs}, looked ${looks} times${ended})`;
      const message = args.negate
        ? `"${args.pattern}" is still on the ${data.matchedAgainst} ${how}; expected it absent.`
        : `"${args.pattern}" is not on the ${data.matchedAgainst} ${how}.`;
      const hint = "Check the pattern against the screen at the end, shown with this failure.";
      const view = args.matchScreen
        ? viewParts(toView(await session.emulator.settledSnapshot({ format: "text", highlights: true })))
        : { blocks: ["Raw output (tail):", clipTail(haystack, SHOWN_RAW_CHARS)] };
      throw new ReplyError("ASSERTION_FAILED", message, hint, data, mergeParts({ fields: { waitedMs } }, view));
    }
    const parts = {
      fields: { ...(args.matchScreen ? {} : { matchedAgainst: "raw" }), waitedMs: data.waitedMs },
      lines: waitLines({ ...data, matched: found !== null, pattern: args.pattern }),
      blocks: args.includeText ? ["Text:", haystack] : [],
    };
    const after = args.timeoutMs > 0 ? ` after ${waitedMs} ms` : "";
    return {
      summary: `Assertion passed: "${args.pattern}" ${args.negate ? "absent" : "present"}${after}`,
      data,
      parts,
    };
  },
});

/** Raw output shown in a failed assertion's text: its newest characters. */
const SHOWN_RAW_CHARS = 2000;

const clipTail = (text: string, max: number) => (text.length > max ? `…${text.slice(-max)}` : text);

/** The screen (waiting: as a finished frame, a synchronized update let finish first), or the raw output. */
async function readHaystack(session: Session, screen: boolean, whole: boolean): Promise<string> {
  if (!screen) {
    await session.emulator.flushed();
    return new TextDecoder().decode(session.raw.tail());
  }
  if (whole) return (await session.emulator.settledSnapshot({ format: "text" })).text;
  await session.emulator.flushed();
  return session.emulator.text();
}

export interface ScriptDefaults {
  timeoutMs?: number;
  pollIntervalMs?: number;
  captureScreen?: boolean;
  waitAfterMs?: number;
  screenDetail?: "auto" | "full" | "diff";
  /**
   * Waits that time out do not fail their step. Unset: wait_for_text steps fail, inline waitFor does not (the CLI
   * sets false).
   */
  optional?: boolean;
}

/**
 * Apply script defaults to a raw step, only for keys that step's schema has; step values win.
 * `optional` is the step's own flag (or undefined): an optional step's wait may time out without failing it.
 */
export function withDefaults(
  tool: SessionToolDef,
  raw: Record<string, unknown>,
  defaults: ScriptDefaults,
  optional?: boolean,
): Record<string, unknown> {
  const entries = tool.input.entries;
  const step: Record<string, unknown> = {};
  for (const key of ["captureScreen", "waitAfterMs", "screenDetail", "timeoutMs", "pollIntervalMs"] as const) {
    // run_script's check step (assert_text) looks once unless the step itself asks to wait (the test runner sets
    // its timeout)
    if (key === "timeoutMs" && tool.history === "check") continue;
    if (key in entries && defaults[key] !== undefined) step[key] = defaults[key];
  }
  // a wait step (wait_for_text) fails on timeout, its default, unless the step or the defaults say optional
  if (tool.history === "wait" && (optional ?? defaults.optional) === true) step.errorOnTimeout = false;
  Object.assign(step, raw);
  const waitFor = raw.waitFor;
  if (waitFor !== null && typeof waitFor === "object" && !Array.isArray(waitFor)) {
    // an inline waitFor fails its step when optional is false (tui-tester test's default); run_script keeps the
    // original's "not matched"
    const nested: Record<string, unknown> = { errorOnTimeout: !(optional ?? defaults.optional ?? true) };
    if (defaults.timeoutMs !== undefined) nested.timeoutMs = defaults.timeoutMs;
    if (defaults.pollIntervalMs !== undefined) nested.pollIntervalMs = defaults.pollIntervalMs;
    step.waitFor = { ...nested, ...waitFor };
  }
  return step;
}
