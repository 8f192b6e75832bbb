/** Session lifecycle tools: start_session, stop_session, list_sessions, get_exit_info. */
import { resolve } from "node:path";
import * as v from "valibot";
import { describeExit } from "../session/exit-info.ts";
import { MAX_COLS, MAX_ROWS } from "../term/size.ts";
import { planRecording } from "../record/recorder.ts";
import { openWebViewer } from "./artifact-tools.ts";
import { annotations, defineSessionTool, defineTool } from "./define.ts";
import { listedAs, optionalBoolean, positiveInt, sessionId } from "./schemas.ts";
import { B, exitShape, list, N, NN, NS, S, sessionShape, shape, strings, unlisted } from "./output-shape.ts";
import { fieldsWithout } from "./reply.ts";
import { sessionInfo, sessionLine, startFields } from "./session-info.ts";

const signalName = v.picklist(["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"]);

export const startSessionTool = defineTool({
  name: "start_session",
  describes: { outputs: 1 },
  output: shape({ sessionId: S, info: sessionShape }),
  description:
    "Run a program in a new PTY and headless xterm; returns the sessionId. Pass " +
    "visible: true so the human can watch (not in headless/CI runs).",
  input: v.strictObject({
    command: v.pipe(v.string(), v.minLength(1), v.description('On PATH or a path ("bash", "./app").')),
    args: v.optional(v.array(v.string()), []),
    cwd: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Default: the server's."))),
    env: v.optional(
      listedAs(v.record(v.string(), v.nullable(v.string())), {
        type: "object",
        additionalProperties: { type: "string" },
        description: "Over the server's environment; null removes a variable.",
      }),
    ),
    isolate: v.optional(
      v.pipe(v.boolean(), v.description("Own HOME, XDG, TMPDIR; env only PATH, LANG, LC_*, TZ + yours.")),
    ),
    passEnv: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.minLength(1))),
        v.maxLength(100),
        v.description("Server variables to pass; *_TOKEN, *_API_KEY... are dropped."),
      ),
    ),
    cols: v.optional(positiveInt(MAX_COLS), 80),
    rows: v.optional(positiveInt(MAX_ROWS), 24),
    term: v.optional(v.pipe(v.string(), v.minLength(1)), "xterm-256color"),
    name: v.optional(v.pipe(v.string(), v.maxLength(100), v.description("Shown in list_sessions and viewer titles."))),
    // One type per listed field (single-type dialects); visible: "web" and record: "<path>" are still accepted.
    visible: v.optional(
      listedAs(v.union([v.boolean(), v.literal("web")]), {
        type: "boolean",
        description: "A terminal window mirroring the session.",
      }),
      false,
    ),
    web: optionalBoolean(false, "Open the web viewer instead (watch, take control); its URL is in info.viewer."),
    record: v.optional(
      listedAs(v.union([v.boolean(), v.pipe(v.string(), v.minLength(1), v.maxLength(4096))]), {
        type: "boolean",
        description: "Record asciicast v2 from the first byte.",
      }),
    ),
    recordPath: v.optional(
      v.pipe(
        v.string(),
        v.minLength(1),
        v.maxLength(4096),
        v.description("Record to this .cast path (as start_recording.path)."),
      ),
    ),
    clock: v.optional(
      v.pipe(
        v.string(),
        v.maxLength(64),
        v.description('Frozen clock via libfaketime, e.g. "2026-01-01T00:00:00Z"; "@..." ticks from there.'),
      ),
    ),
    viewerCommand: v.optional(
      v.pipe(
        v.strictObject({ command: v.pipe(v.string(), v.minLength(1)), args: v.optional(v.array(v.string()), []) }),
        v.description("Custom viewer: command and args, where args may contain {fifo} and {title}."),
      ),
    ),
  }),
  annotations: annotations("Start session", "write", false),
  async run(args, ctx) {
    const artifacts = planRecording(
      { record: args.recordPath ?? args.record },
      { recordDir: ctx.config.recordDir, outputDir: ctx.output.path, cwd: ctx.cwd },
    );
    const session = await ctx.sessions.start({ ...args, cwd: resolve(ctx.cwd, args.cwd ?? "") });
    let recordingStart: Record<string, unknown>;
    try {
      recordingStart = artifacts.apply(session);
    } catch (error) {
      // The recording was asked for: a session without it would pass a test that meant to keep one.
      await ctx.sessions.stop(session.id, "SIGKILL", 0).catch(() => undefined);
      throw error;
    }
    if (args.web || args.visible === "web") session.extras.viewer = openWebViewer(session, ctx);
    else if (args.visible || args.viewerCommand)
      session.extras.viewer = await ctx.viewers.open(session, args.viewerCommand);
    const info = { ...sessionInfo(session, ctx), ...recordingStart };
    const viewer = session.extras.viewer;
    const viewerNote = viewer
      ? viewer.open
        ? `; viewer open in ${viewer.terminal}`
        : `; no viewer: ${viewer.reason}`
      : "";
    const root = ctx.sessions.isolatedRoot(session.id);
    const isolated = root ? `; isolated, HOME ${root}/home (removed at stop)` : "";
    const summary =
      `Started ${session.id} (pid ${session.pid}): ${args.command} ${args.args.join(" ")}`.trimEnd() +
      isolated +
      viewerNote;
    // The text leaves out what the summary or the request already says, and the modes (list_sessions has them).
    return {
      summary,
      data: { sessionId: session.id, info },
      parts: { fields: startFields(info) },
    };
  },
});

export const stopSessionTool = defineTool({
  name: "stop_session",
  output: shape({ alreadyExited: B, escalated: B, signalsSent: strings, exit: exitShape }),
  description:
    "Send signal and SIGHUP (like closing the terminal) to the process group and " +
    "escaped descendants; SIGKILL after graceMs. Returns the exit info.",
  input: v.strictObject({
    sessionId,
    signal: v.optional(signalName, "SIGTERM"),
    graceMs: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(60_000), v.description("Default 2000."))),
  }),
  annotations: annotations("Stop session", "destroy", true),
  async run(args, ctx) {
    const result = await ctx.sessions.stop(args.sessionId, args.signal, args.graceMs);
    const how = result.alreadyExited
      ? "had already exited"
      : `stopped with ${result.signalsSent.join(" then ") || "no signal (already gone)"}`;
    // The summary says how it ended; the text adds only an escalation and how long it ran.
    const fields = { ...(result.escalated ? { escalated: true } : {}), runtimeMs: result.exit.runtimeMs };
    return {
      summary: `${args.sessionId} ${how}: ${describeExit(result.exit)}`,
      data: { ...result },
      parts: { fields },
    };
  },
});

export const listSessionsTool = defineTool({
  name: "list_sessions",
  output: shape({ count: N, running: N, maxSessions: N, sessions: list(sessionShape) }),
  description: "Every session, running or recently exited: state, pid, size, exit code, bytes out, terminal modes.",
  input: v.strictObject({}),
  annotations: annotations("List sessions", "read"),
  async run(_args, ctx) {
    const sessions = ctx.sessions.list().map((s) => sessionInfo(s, ctx));
    const running = sessions.filter((s) => s.state !== "exited").length;
    return {
      summary: `${sessions.length} session(s), ${running} running`,
      data: { count: sessions.length, running, maxSessions: ctx.sessions.limits.maxSessions, sessions },
      parts: { lines: sessions.map(sessionLine), fields: { maxSessions: ctx.sessions.limits.maxSessions } },
    };
  },
});

/** Screen rows get_exit_info returns: the last few non-blank ones (the exit message, the prompt). */
const EXIT_SCREEN_ROWS = 5;

export const getExitInfoTool = defineSessionTool({
  name: "get_exit_info",
  output: shape(
    { exited: B, exitCode: NN, signal: NS, screenTail: S, tail: S },
    unlisted<{ state: string; exitedAt: string; runtimeMs: number; bytesOut: number }>(),
  ),
  description:
    "Exit status (exit code or killing signal), the last non-blank screen rows and " +
    "outputTailBytes of raw output. Works while running too (exited: false).",
  input: v.strictObject({
    sessionId,
    outputTailBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1024 * 1024)), 200),
  }),
  compat: { tailBytes: "outputTailBytes" },
  annotations: annotations("Get exit info", "read"),
  allowExited: true,
  async act(session, args, ctx) {
    await session.emulator.flushed();
    const tail = new TextDecoder().decode(session.raw.tail(args.outputTailBytes));
    const screenTail = session.emulator.text().replace(/\s+$/, "").split("\n").slice(-EXIT_SCREEN_ROWS).join("\n");
    const data = {
      sessionId: session.id,
      state: session.state,
      exited: session.exit !== null,
      ...(session.exit ?? { exitCode: null, signal: null }),
      bytesOut: session.bytesOut,
      screenTail,
      tail,
    };
    // The raw tail is for programs (escape codes and all); the text shows the screen's last rows. Beside
    // structuredContent the text names the tail's size. In text mode, the only channel, it is printed
    // (escaped) when the caller asked for it with outputTailBytes; the default tail is only named.
    const rows = screenTail === "" ? "(blank screen: the app cleared it, or wrote nothing)" : screenTail;
    const bytes = Buffer.byteLength(tail);
    const inText = ctx.config.output === "text";
    const asked = inText && (ctx.rawArgs as Record<string, unknown>)?.outputTailBytes !== undefined;
    const named = inText
      ? `${bytes} raw bytes (outputTailBytes prints them)`
      : `${bytes} raw bytes in structuredContent.tail`;
    const fields = {
      ...fieldsWithout(data, "screenTail", "tail", "exited", "state", "exitCode", "signal"),
      ...(asked ? {} : { tail: named }),
    };
    const raw = asked ? [`Raw output tail (${bytes} bytes, as JSON): ${JSON.stringify(tail)}`] : [];
    return {
      summary: `${session.id}: ${describeExit(session.exit)}`,
      data,
      parts: { fields, blocks: [...raw, "Last screen rows:", rows] },
    };
  },
});
