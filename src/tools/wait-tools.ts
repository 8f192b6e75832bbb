/** Waiting tools: wait_for_text, wait_for_idle. Event-driven (see session/wait.ts). */
import * as v from "valibot";
import { compileAll, waitForIdle, waitForText } from "../session/wait.ts";
import { annotations, defineSessionTool } from "./define.ts";
import { mergeParts, viewParts } from "./reply.ts";
import { noteShown } from "./shown-screen.ts";
import { idleSummary } from "./settle-words.ts";
import { waitLines } from "./wait-lines.ts";
import { clampedNumber, optionalBoolean, sessionId, waitEntries } from "./schemas.ts";
import {
  B,
  cursorShape,
  errorShape,
  highlightShape,
  list,
  N,
  nested,
  S,
  shape,
  unlisted,
  waitShape,
} from "./output-shape.ts";
import { notSeenReason, waitTimeout } from "../session/wait-miss.ts";

/** The screen a wait returns: text, cursor and highlights. */
const waitScreen = nested({ text: S, cursor: cursorShape }, { highlights: list(highlightShape) });
/** What keeps a program busy (session/ready/oracle.ts Busy). */
const busyShape = nested({ pid: N, command: S, state: S }, { timerDueMs: N });

export const waitForTextTool = defineSessionTool({
  name: "wait_for_text",
  history: "wait",
  describes: { inputs: { waitFor: "arguments" }, outputs: 1 },
  scriptable: true,
  output: shape({ ...waitShape.entries, screen: waitScreen, error: errorShape }),
  description:
    "Block until pattern appears on the screen (or in raw output). Returns the " +
    "match and the screen at that instant; a timeout is an error result with that screen.",
  input: v.strictObject({
    sessionId,
    ...waitEntries,
    errorOnTimeout: optionalBoolean(true, "false: a timeout is a success with matched: false."),
  }),
  annotations: annotations("Wait for text", "read"),
  check: (args) => {
    for (const m of compileAll(args)) m[Symbol.dispose]();
  },
  allowExited: true,
  async act(session, args, ctx) {
    const { snapshot, ...result } = await waitForText(session, args, ctx.signal);
    const screen = { text: snapshot.text, cursor: snapshot.cursor, highlights: snapshot.highlights };
    const data = { sessionId: session.id, ...result, screen };
    const fields = {
      ...(result.matchedAgainst === "screen" ? {} : { matchedAgainst: result.matchedAgainst }),
      exited: result.exited,
    };
    const parts = mergeParts(
      { fields, lines: waitLines(result) },
      viewParts({ ...screen, cols: snapshot.cols, rows: snapshot.rows }),
    );
    noteShown(session, snapshot);
    const shown = args.anyOf ? `anyOf ${JSON.stringify(args.anyOf)}` : `"${args.pattern}"`;
    const which = result.matchedIndex !== undefined ? ` (anyOf[${result.matchedIndex}])` : "";
    if (result.matched)
      return { summary: `Matched "${result.pattern}"${which} after ${result.elapsedMs} ms`, data, parts };
    if (!args.errorOnTimeout) return { summary: `${shown} not seen: ${notSeenReason(result)}`, data, parts };
    // An error result that still carries the whole result (matched: false, the screen), as run_script's ok: false does.
    const error = waitTimeout(result, {
      shown,
      hint: {
        exited: "The screen it left is below; get_exit_info and get_raw_output tell more.",
        timeout: "Check the pattern against the screen below, raise timeoutMs, or try matchScreen: false.",
      },
    });
    return { summary: `${shown} not seen: ${notSeenReason(result)}`, data, parts, error };
  },
});

export const waitForIdleTool = defineSessionTool({
  name: "wait_for_idle",
  scriptable: true,
  output: shape(
    {
      idle: B,
      idleFor: N,
      elapsedMs: N,
      settledBy: S,
      program: S,
      busy: busyShape,
      fallback: S,
      screen: waitScreen,
    },
    unlisted<{
      idleMs: number;
      timeoutMs: number;
      timedOut: boolean;
      tickMs: number;
      unseen: string;
      bytesDuringWait: number;
    }>(),
  ),
  description:
    "Block until the program waits for input again (mode idle) or has written " +
    "nothing for idleMs (mode quiet). Returns the screen.",
  input: v.strictObject({
    sessionId,
    mode: v.optional(v.picklist(["idle", "quiet"]), "idle"),
    idleMs: clampedNumber(10, 60_000, 500),
    timeoutMs: clampedNumber(10, 600_000, 5000),
    pollIntervalMs: clampedNumber(10, 5000, 50, "Max gap between checks."),
  }),
  annotations: annotations("Wait for idle", "read"),
  allowExited: true,
  async act(session, args, ctx) {
    const result = await waitForIdle(session, args, ctx.signal);
    const summary = idleSummary(result, args.timeoutMs);
    const screen = session.emulator.snapshot({ highlights: true });
    noteShown(session, screen);
    const data = {
      sessionId: session.id,
      ...result,
      screen: { text: screen.text, cursor: screen.cursor, highlights: screen.highlights },
    };
    return { summary, data, parts: mergeParts({ fields: { ...result } }, viewParts(screen)) };
  },
});
