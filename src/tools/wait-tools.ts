/** Waiting tools: wait_for_text, wait_for_idle. Event-driven (see session/wait.ts). */
import * as v from "valibot";
import { compileMatcher } from "../session/matcher.ts";
import { waitForIdle as waitIdle, waitForText as waitText } from "../session/wait.ts";
import { annotations, defineSessionTool } from "./define.ts";
import { matchLines } from "./observed.ts";
import { mergeParts, viewParts } from "./reply.ts";
import { clampedNumber, optionalBoolean, sessionId, waitEntries } from "./schemas.ts";
import { B, N, O, shape } from "./output-shape.ts";

export const waitForText = defineSessionTool({
  name: "wait_for_text",
  scriptable: true,
  output: shape({ matched: B, match: v.unknown(), elapsedMs: N, screen: O, error: O }),
  description: "Block until pattern appears on the screen (or in raw output). Returns the match and the screen at that instant; a timeout is an error result with that screen.",
  input: v.strictObject({ sessionId, ...waitEntries, errorOnTimeout: optionalBoolean(true, "false: a timeout is a success with matched: false.") }),
  annotations: annotations("Wait for text", "read"),
  check: (args) => void compileMatcher(args),
  allowExited: true,
  async act(session, args, ctx) {
    const { snapshot, ...result } = await waitText(session, args, ctx.signal);
    const screen = { text: snapshot.text, cursor: snapshot.cursor, highlights: snapshot.highlights };
    const data: Record<string, unknown> = { sessionId: session.id, ...result, screen };
    const fields = { ...(result.matchedAgainst === "screen" ? {} : { matchedAgainst: result.matchedAgainst }), exited: result.exited };
    const parts = mergeParts({ fields, lines: matchLines(result) }, viewParts(screen));
    if (result.matched) return { summary: `Matched "${args.pattern}" after ${result.elapsedMs} ms`, data, parts };
    const seen = result.exited ? "the process exited" : `timed out after ${args.timeoutMs} ms`;
    if (!args.errorOnTimeout) return { summary: `"${args.pattern}" not seen: ${seen}`, data, parts };
    // An error result that still carries the whole result (matched: false, the screen), as run_script's ok: false does.
    const message = `"${args.pattern}" did not appear on the ${result.matchedAgainst} within ${args.timeoutMs} ms${result.exited ? " (the process exited)" : ""}.`;
    const hint = "Check the pattern against the screen below, raise timeoutMs, or try matchScreen: false.";
    return { summary: `"${args.pattern}" not seen: ${seen}`, data, parts, error: { code: "WAIT_TIMEOUT", message, hint } };
  },
});

export const waitForIdle = defineSessionTool({
  name: "wait_for_idle",
  scriptable: true,
  output: shape({ idle: B, idleFor: N, elapsedMs: N, screen: O }),
  description: "Block until no output for idleMs (counted from the later of the last output and the call). Returns the screen.",
  input: v.strictObject({
    sessionId,
    idleMs: clampedNumber(10, 60_000, 500),
    timeoutMs: clampedNumber(10, 600_000, 5000),
    pollIntervalMs: clampedNumber(10, 5000, 50, "Max gap between checks."),
  }),
  annotations: annotations("Wait for idle", "read"),
  allowExited: true,
  async act(session, args, ctx) {
    const result = await waitIdle(session, args, ctx.signal);
    const summary = result.idle ? `Idle after ${result.elapsedMs} ms` : `Still writing after ${args.timeoutMs} ms`;
    const screen = session.emulator.snapshot({ highlights: true });
    const data = { sessionId: session.id, ...result, screen: { text: screen.text, cursor: screen.cursor, highlights: screen.highlights } };
    return { summary, data, parts: mergeParts({ fields: { ...result } }, viewParts(screen)) };
  },
});
