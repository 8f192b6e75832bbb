/** Session lifecycle tools: start_session, stop_session, list_sessions, get_exit_info. */
import * as v from "valibot";
import type { Session } from "../session/session.ts";
import { describeExit } from "../session/session.ts";
import type { ViewerStatus } from "../viewer/manager.ts";
import { annotations, defineSessionTool, defineTool } from "./define.ts";
import { optionalBoolean, positiveInt, sessionId } from "./schemas.ts";

const viewerStatus = new WeakMap<Session, ViewerStatus>();

export function sessionInfo(session: Session): Record<string, unknown> {
  return {
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
    ...(session.droppedBytes > 0 ? { droppedBytes: session.droppedBytes } : {}),
    exitCode: session.exit?.exitCode ?? null,
    signal: session.exit?.signal ?? null,
    modes: session.modes(),
    viewer: viewerStatus.get(session) ?? { requested: false, open: false },
  };
}

const signalName = v.picklist(["SIGTERM", "SIGKILL", "SIGINT", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2"]);

export const startSession = defineTool({
  name: "start_session",
  description: "Spawn a program in a fresh PTY with a headless xterm emulator. Pass visible: true so the human can watch in a real terminal window (skip only for headless/CI runs). Returns sessionId for every other tool.",
  input: v.strictObject({
    command: v.pipe(v.string(), v.minLength(1), v.description("Program to run, found on PATH or a path (\"bash\", \"python3\", \"./app\").")),
    args: v.optional(v.pipe(v.array(v.string()), v.description("Arguments.")), []),
    cwd: v.optional(v.pipe(v.string(), v.minLength(1), v.description("Working directory. Default: the server's."))),
    env: v.optional(v.pipe(v.record(v.string(), v.string()), v.description("Variables merged over the server's environment."))),
    cols: v.optional(positiveInt(1000, "Terminal width in columns."), 80),
    rows: v.optional(positiveInt(500, "Terminal height in rows."), 24),
    term: v.optional(v.pipe(v.string(), v.minLength(1), v.description("TERM for the child.")), "xterm-256color"),
    name: v.optional(v.pipe(v.string(), v.maxLength(100), v.description("Friendly name shown in list_sessions and the viewer title."))),
    visible: optionalBoolean(false, "Open a terminal window that mirrors the session live for the human watching."),
    viewerCommand: v.optional(
      v.pipe(
        v.strictObject({ command: v.pipe(v.string(), v.minLength(1)), args: v.optional(v.array(v.string()), []) }),
        v.description("Custom viewer: command and args, where args may contain {fifo} and {title}."),
      ),
    ),
  }),
  annotations: annotations("Start session", "write", false),
  async run(args, ctx) {
    const session = await ctx.sessions.start(args);
    if (args.visible || args.viewerCommand) viewerStatus.set(session, await ctx.viewers.open(session, args.viewerCommand));
    const info = sessionInfo(session);
    const viewer = viewerStatus.get(session);
    const viewerNote = viewer ? (viewer.open ? `; viewer open in ${viewer.terminal}` : `; no viewer: ${viewer.reason}`) : "";
    return { summary: `Started ${session.id} (pid ${session.pid}): ${args.command} ${args.args.join(" ")}`.trimEnd() + viewerNote, data: { sessionId: session.id, info } };
  },
});

export const stopSession = defineTool({
  name: "stop_session",
  description: "Stop a session as closing its terminal would: send signal (default SIGTERM) and SIGHUP to its process group and to descendants that left it, SIGKILL after graceMs if anything is still alive. Returns the exit info.",
  input: v.strictObject({
    sessionId,
    signal: v.optional(v.pipe(signalName, v.description("First signal to send.")), "SIGTERM"),
    graceMs: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(60_000), v.description("Wait this long before SIGKILL. Default 2000."))),
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
  description: "List every session the server tracks (running and recently exited) with state, pid, size, exit code, bytes out and active terminal modes.",
  input: v.strictObject({}),
  annotations: annotations("List sessions", "read"),
  async run(_args, ctx) {
    const sessions = ctx.sessions.list().map(sessionInfo);
    const running = sessions.filter((s) => s.state !== "exited").length;
    return {
      summary: `${sessions.length} session(s), ${running} running`,
      data: { count: sessions.length, running, maxSessions: ctx.sessions.limits.maxSessions, sessions },
    };
  },
});

export const getExitInfo = defineSessionTool({
  name: "get_exit_info",
  description: "Exit status of a session (exit code, or the signal that killed it) and the tail of its output. Works while running too (exited: false).",
  input: v.strictObject({
    sessionId,
    tailBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1024 * 1024), v.description("Raw output tail to include. Default 2000.")), 2000),
  }),
  annotations: annotations("Get exit info", "read"),
  allowExited: true,
  async act(session, args) {
    await session.emulator.flushed();
    const tail = new TextDecoder().decode(session.raw.tail(args.tailBytes));
    return {
      summary: `${session.id}: ${describeExit(session.exit)}`,
      data: { sessionId: session.id, state: session.state, exited: session.exit !== null, ...(session.exit ?? { exitCode: null, signal: null }), bytesOut: session.bytesOut, tail, screenText: session.emulator.text() },
    };
  },
});
