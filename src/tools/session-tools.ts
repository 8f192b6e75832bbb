/** Session lifecycle tools: start_session, stop_session, list_sessions, get_exit_info. */
import { resolve } from "node:path";
import * as v from "valibot";
import type { Session } from "../session/session.ts";
import { describeExit } from "../session/session.ts";
import type { ViewerStatus } from "../viewer/manager.ts";
import { artifactInfo, openWebViewer, planSessionArtifacts } from "./artifact-tools.ts";
import { annotations, defineSessionTool, defineTool, type ToolContext } from "./define.ts";
import { positiveInt, sessionId } from "./schemas.ts";
import { dropped } from "./screen-tools.ts";
import { A, B, N, NN, NS, O, S, shape } from "./output-shape.ts";

const viewerStatus = new WeakMap<Session, ViewerStatus>();

export function sessionInfo(session: Session, ctx: Pick<ToolContext, "takeovers">): Record<string, unknown> {
  return {
    id: session.id,
    sessionId: session.id,
    name: session.name ?? null,
    command: session.config.command,
    args: session.config.args,
    cwd: session.config.cwd,
    pid: session.pid,
    state: session.state,
    cols: session.cols,
    rows: session.rows,
    term: session.config.term,
    createdAt: new Date(session.createdAt).toISOString(),
    bytesOut: session.bytesOut,
    ...dropped(session),
    exitCode: session.exit?.exitCode ?? null,
    signal: session.exit?.signal ?? null,
    modes: session.modes(),
    viewer: viewerStatus.get(session) ?? { requested: false, open: false },
    ...artifactInfo(session, ctx),
  };
}

const signalName = v.picklist(["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"]);

export const startSession = defineTool({
  name: "start_session",
  output: shape({ sessionId: S, info: O }),
  description: "Run a program in a new PTY and headless xterm; returns the sessionId. Pass visible: true so the human can watch (not in headless/CI runs).",
  input: v.strictObject({
    command: v.pipe(v.string(), v.minLength(1), v.description("On PATH or a path (\"bash\", \"./app\").")),
    args: v.optional(v.array(v.string()), []),
    cwd: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Default: the server's."))),
    env: v.optional(v.pipe(v.record(v.string(), v.string()), v.description("Merged over the server's environment."))),
    cols: v.optional(positiveInt(1000), 80),
    rows: v.optional(positiveInt(500), 24),
    term: v.optional(v.pipe(v.string(), v.minLength(1)), "xterm-256color"),
    name: v.optional(v.pipe(v.string(), v.maxLength(100), v.description("Shown in list_sessions and viewer titles."))),
    visible: v.optional(v.pipe(v.union([v.boolean(), v.literal("web")]), v.description("true: a terminal window mirroring the session. \"web\": the web viewer (watch, take control); URL in info.viewer.")), false),
    record: v.optional(v.pipe(v.union([v.boolean(), v.pipe(v.string(), v.minLength(1), v.maxLength(4096))]), v.description("Record asciicast v2 from the first byte: true, or a .cast path (as start_recording.path)."))),
    viewerCommand: v.optional(
      v.pipe(
        v.strictObject({ command: v.pipe(v.string(), v.minLength(1)), args: v.optional(v.array(v.string()), []) }),
        v.description("Custom viewer: command and args, where args may contain {fifo} and {title}."),
      ),
    ),
  }),
  annotations: annotations("Start session", "write", false),
  async run(args, ctx) {
    const artifacts = planSessionArtifacts(args, ctx);
    const session = await ctx.sessions.start({ ...args, cwd: resolve(ctx.cwd, args.cwd ?? "") });
    const recordingStart = artifacts.apply(session);
    if (args.visible === "web") viewerStatus.set(session, openWebViewer(session, ctx));
    else if (args.visible || args.viewerCommand) viewerStatus.set(session, await ctx.viewers.open(session, args.viewerCommand));
    const info = { ...sessionInfo(session, ctx), ...recordingStart };
    const viewer = viewerStatus.get(session);
    const viewerNote = viewer ? (viewer.open ? `; viewer open in ${viewer.terminal}` : `; no viewer: ${viewer.reason}`) : "";
    return { summary: `Started ${session.id} (pid ${session.pid}): ${args.command} ${args.args.join(" ")}`.trimEnd() + viewerNote, data: { sessionId: session.id, info } };
  },
});

export const stopSession = defineTool({
  name: "stop_session",
  output: shape({ alreadyExited: B, escalated: B, signalsSent: A, exit: O }),
  description: "Send signal and SIGHUP (like closing the terminal) to the process group and escaped descendants; SIGKILL after graceMs. Returns the exit info.",
  input: v.strictObject({
    sessionId,
    signal: v.optional(signalName, "SIGTERM"),
    graceMs: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(60_000), v.description("Default 2000."))),
  }),
  annotations: annotations("Stop session", "destroy", true),
  async run(args, ctx) {
    const result = await ctx.sessions.stop(args.sessionId, args.signal, args.graceMs);
    const how = result.alreadyExited ? "had already exited" : `stopped with ${result.signalsSent.join(" then ") || "no signal (already gone)"}`;
    return { summary: `${args.sessionId} ${how}: ${describeExit(result.exit)}`, data: { ...result } };
  },
});

export const listSessions = defineTool({
  name: "list_sessions",
  output: shape({ count: N, running: N, maxSessions: N, sessions: A }),
  description: "Every session, running or recently exited: state, pid, size, exit code, bytes out, terminal modes.",
  input: v.strictObject({}),
  annotations: annotations("List sessions", "read"),
  async run(_args, ctx) {
    const sessions = ctx.sessions.list().map((s) => sessionInfo(s, ctx));
    const running = sessions.filter((s) => s.state !== "exited").length;
    return {
      summary: `${sessions.length} session(s), ${running} running`,
      data: { count: sessions.length, running, maxSessions: ctx.sessions.limits.maxSessions, sessions },
    };
  },
});

/** Screen rows get_exit_info returns: the last few non-blank ones (the exit message, the prompt). */
const EXIT_SCREEN_ROWS = 5;

export const getExitInfo = defineSessionTool({
  name: "get_exit_info",
  output: shape({ exited: B, exitCode: NN, signal: NS, screenTail: S, tail: S }),
  description: "Exit status (exit code or killing signal), the last non-blank screen rows and outputTailBytes of raw output. Works while running too (exited: false).",
  input: v.strictObject({
    sessionId,
    outputTailBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1024 * 1024)), 200),
  }),
  compat: { tailBytes: "outputTailBytes" },
  annotations: annotations("Get exit info", "read"),
  allowExited: true,
  async act(session, args) {
    await session.emulator.flushed();
    const tail = new TextDecoder().decode(session.raw.tail(args.outputTailBytes));
    const screenTail = session.emulator.text().replace(/\s+$/, "").split("\n").slice(-EXIT_SCREEN_ROWS).join("\n");
    return {
      summary: `${session.id}: ${describeExit(session.exit)}`,
      data: { sessionId: session.id, state: session.state, exited: session.exit !== null, ...(session.exit ?? { exitCode: null, signal: null }), bytesOut: session.bytesOut, screenTail, tail },
    };
  },
});
