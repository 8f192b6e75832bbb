/**
 * How a session is reported: its info (start_session, list_sessions), start_session's text fields, and
 * list_sessions' one line per session.
 */
import type { Session } from "../session/session.ts";
import type { ViewerStatus } from "../viewer/manager.ts";
import { artifactInfo } from "./artifact-tools.ts";
import type { ToolContext } from "./define.ts";
import type { sessionShape, Shaped } from "./output-shape.ts";
import { fieldsWithout } from "./reply.ts";
import { dropped } from "./screen-tools.ts";

declare module "../session/session.ts" {
  interface SessionExtras {
    /** The viewer start_session opened (or failed to open) for the session. */
    viewer: ViewerStatus;
  }
}

/** One session as start_session and list_sessions report it. */
export type SessionInfo = Shaped<typeof sessionShape>;

export function sessionInfo(session: Session, ctx: Pick<ToolContext, "takeovers">): SessionInfo {
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
    viewer: session.extras.viewer ?? { requested: false, open: false },
    ...artifactInfo(session, ctx),
  };
}

/**
 * start_session's text fields: what the summary (id, pid, command line) and the request do not already
 * say, the modes (list_sessions has them), and a running state or nothing written yet, which "Started" says.
 */
export function startFields(info: Record<string, unknown>): Record<string, unknown> {
  const fields = fieldsWithout(info, "id", "args", "modes", "viewer", "createdAt", "command", "pid");
  if (fields.state === "running") delete fields.state;
  if (fields.bytesOut === 0) delete fields.bytesOut;
  return fields;
}

/**
 * One session as one line: id, name, state, command line, pid, size, exit, bytes out, the terminal modes the
 * app switched on, and a recording, viewer or human at the keys.
 */
export function sessionLine(s: SessionInfo): string {
  const command = `${s.command}${s.args.length ? ` ${s.args.join(" ")}` : ""}`;
  const exit = `${s.exitCode !== null ? `, exit ${s.exitCode}` : ""}${s.signal ? `, ${s.signal}` : ""}`;
  const dropped = s.droppedBytes ? `, droppedBytes ${s.droppedBytes}` : "";
  const modes = s.modes ? modeWords(s.modes) : [];
  const recording = s.recording && "path" in s.recording ? s.recording.path : undefined;
  const viewer = s.viewer;
  const extras = [
    modes.length ? `modes: ${modes.join(", ")}` : "",
    recording ? `recording to ${recording}` : "",
    viewer?.open ? `viewer: ${viewer.url ?? viewer.terminal ?? "open"}` : "",
    s.humanInControl ? "a human has control" : "",
  ].filter(Boolean);
  return (
    `${s.id}${s.name ? ` "${s.name}"` : ""}: ${s.state}, ${command}, pid ${s.pid}, ` +
    `${s.cols}x${s.rows}${exit}, ${s.bytesOut} bytes out${dropped}${extras.map((e) => `; ${e}`).join("")}`
  );
}

/** The modes an app has switched away from a plain terminal's, in a few words each. */
function modeWords(m: NonNullable<SessionInfo["modes"]>): string[] {
  return [
    m.altScreen ? "alternate screen" : "",
    m.mouseTracking !== "none" ? `mouse ${m.mouseTracking} (${m.mouseEncoding})` : "",
    m.bracketedPaste ? "bracketed paste" : "",
    m.applicationCursorKeys ? "application cursor keys" : "",
    m.applicationKeypad ? "application keypad" : "",
    m.kittyKeyboardFlags ? `kitty keyboard flags ${m.kittyKeyboardFlags}` : "",
    m.focusEvents ? "focus events" : "",
    m.synchronizedOutput ? "synchronized output" : "",
    m.cursorVisible ? "" : "cursor hidden",
  ].filter(Boolean);
}
