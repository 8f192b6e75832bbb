/** Waiting tools: wait_for_text, wait_for_idle. Event-driven (see session/wait.ts). */
import * as v from "valibot";
import { TuiError } from "../errors.ts";
import { compileMatcher } from "../session/matcher.ts";
import { waitForIdle as waitIdle, waitForText as waitText } from "../session/wait.ts";
import { annotations, defineSessionTool } from "./define.ts";
import { clampedNumber, optionalBoolean, sessionId, waitEntries } from "./schemas.ts";

export const waitForText = defineSessionTool({
  name: "wait_for_text",
  description: "Block until a literal or regex pattern appears on the screen (or in raw output with matchScreen: false). Returns the match and the screen at that instant. Literals match trailing spaces as displayed; regexes run on RE2 (linear time), lookaround/backreferences on time-boxed JS.",
  input: v.strictObject({ sessionId, ...waitEntries, errorOnTimeout: optionalBoolean(false, "Return an error result on timeout instead of matched: false.") }),
  annotations: annotations("Wait for text", "read"),
  check: (args) => void compileMatcher(args),
  allowExited: true,
  async act(session, args, ctx) {
    const { snapshot, ...result } = await waitText(session, args, ctx.signal);
    const data = { sessionId: session.id, ...result, screen: { text: snapshot.text, cursor: snapshot.cursor, highlights: snapshot.highlights } };
    if (!result.matched && args.errorOnTimeout) {
      throw new TuiError("WAIT_TIMEOUT", `"${args.pattern}" did not appear on the ${result.matchedAgainst} within ${args.timeoutMs} ms${result.exited ? " (the process exited)" : ""}.`, "The screen is in details.screen; check the pattern or raise timeoutMs.", data);
    }
    const summary = result.matched ? `Matched "${args.pattern}" after ${result.elapsedMs} ms` : `"${args.pattern}" not seen: ${result.exited ? "process exited" : `timed out after ${args.timeoutMs} ms`}`;
    return { summary, data };
  },
});

export const waitForIdle = defineSessionTool({
  name: "wait_for_idle",
  description: "Block until the program has written nothing for idleMs (counted from the later of its last output and the call). Returns the screen then.",
  input: v.strictObject({
    sessionId,
    idleMs: clampedNumber(10, 60_000, 500, "Quiet time that counts as idle, in ms."),
    timeoutMs: clampedNumber(10, 600_000, 5000, "Max time to wait in ms."),
    pollIntervalMs: clampedNumber(10, 5000, 50, "Upper bound between idle checks in ms (idleness is timed exactly, so this never delays the answer)."),
  }),
  annotations: annotations("Wait for idle", "read"),
  allowExited: true,
  async act(session, args, ctx) {
    const result = await waitIdle(session, args, ctx.signal);
    const summary = result.idle ? `Idle after ${result.elapsedMs} ms` : `Still writing after ${args.timeoutMs} ms`;
    const screen = session.emulator.snapshot({ highlights: true });
    return { summary, data: { sessionId: session.id, ...result, screen: { text: screen.text, cursor: screen.cursor, highlights: screen.highlights } } };
  },
});
