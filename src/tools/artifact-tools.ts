/** Artifacts for people: asciicast recordings, screenshots, and the web viewer. */
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import * as v from "valibot";
import { markRecording, recordingStats, startRecording, stopRecording } from "../record/recorder.ts";
import { screenshot } from "../render/screenshot.ts";
import type { Session } from "../session/session.ts";
import { openBrowser } from "../web/open-browser.ts";
import { annotations, defineSessionTool, defineTool, type ToolContext, type ToolDef } from "./define.ts";
import { optionalBoolean, sessionId } from "./schemas.ts";
import { B, N, S, shape, unlisted } from "./output-shape.ts";

const overwrite = optionalBoolean(false, "Replace an existing file (refused otherwise).");

const path = (where: string) =>
  v.optional(
    v.pipe(
      v.string(),
      v.minLength(1),
      v.maxLength(4096),
      v.description(`Default: a new file in ${where}. Relative to the server's cwd.`),
    ),
  );

export const startRecordingTool = defineSessionTool({
  name: "start_recording",
  output: shape({ path: S }),
  description:
    "Record the session to an asciicast v2 file as output arrives, until stop_recording, stop_session or exit.",
  input: v.strictObject({
    sessionId,
    path: path("TUI_TESTER_RECORD_DIR or the output directory"),
    includeInput: optionalBoolean(false, 'Also record typed input ("i" events).'),
    overwrite,
  }),
  annotations: annotations("Start recording", "write", false),
  async act(session, args, ctx) {
    const stats = startRecording(session, {
      path: args.path,
      dir: recordDir(ctx),
      cwd: ctx.cwd,
      includeInput: args.includeInput,
      overwrite: args.overwrite,
    });
    return { summary: `Recording ${session.id} to ${stats.path}`, data: { sessionId: session.id, path: stats.path } };
  },
});

export const stopRecordingTool = defineSessionTool({
  name: "stop_recording",
  output: shape({ path: S, events: N, bytes: N, durationMs: N, truncated: B }),
  description: "Stop recording; returns the file and its figures. Works after exit too.",
  input: v.strictObject({ sessionId }),
  annotations: annotations("Stop recording", "write"),
  allowExited: true,
  async act(session) {
    await session.emulator.flushed();
    const stats = stopRecording(session);
    const { closed: _closed, ...data } = stats;
    return {
      summary:
        `Recorded ${stats.events} events over ${stats.durationMs} ms to ${stats.path} ` +
        `(${stats.bytes} bytes${stats.truncated ? ", truncated at the size cap" : ""})`,
      data: { sessionId: session.id, ...data },
      extraContent: [fileLink(stats.path, "application/x-asciicast")],
    };
  },
});

export const markRecordingTool = defineSessionTool({
  name: "mark_recording",
  scriptable: true,
  output: shape({ path: S, atMs: N }),
  description: 'Add a marker labelled text to the recording (asciicast "m" event; players jump to it).',
  // "text", not "label": run_script steps already have a label of their own.
  input: v.strictObject({ sessionId, text: v.optional(v.pipe(v.string(), v.maxLength(200)), "") }),
  annotations: annotations("Mark recording", "write", false),
  async act(session, args) {
    const stats = markRecording(session, args.text);
    return {
      summary: `Marked ${stats.path} at ${stats.durationMs} ms${args.text ? `: ${args.text}` : ""}`,
      data: { sessionId: session.id, path: stats.path, atMs: stats.durationMs },
    };
  },
});

/** An MCP resource link to a file the server wrote. */
function fileLink(path: string, mimeType: string) {
  return { type: "resource_link" as const, uri: pathToFileURL(path).href, name: basename(path), mimeType };
}

/** Above this a PNG is only saved, not inlined, so a reply stays well under the reply cap. */
const MAX_INLINE_PNG_BYTES = 512 * 1024;

export const screenshotTool = defineSessionTool({
  name: "screenshot",
  scriptable: true,
  output: shape({ path: S, format: S, width: N, height: N, bytes: N, inlined: B }, unlisted<{ renderMs: number }>()),
  description: "Picture of the screen with colours, cursor and theme: a PNG image (or SVG text), saved to a file.",
  input: v.strictObject({
    sessionId,
    format: v.optional(v.picklist(["png", "svg"]), "png"),
    path: path("the output directory"),
    scale: v.optional(
      v.pipe(v.number(), v.minValue(0.25), v.maxValue(4), v.description("PNG zoom; 1 is 9x18 pixels per cell.")),
      1,
    ),
    overwrite,
  }),
  // It writes a file: not read-only, so a client that auto-approves reads still asks.
  annotations: annotations("Screenshot", "write", false),
  allowExited: true,
  async act(session, args, ctx) {
    const shot = await screenshot(session, {
      format: args.format,
      path: args.path,
      dir: ctx.output.path,
      cwd: ctx.cwd,
      scale: args.scale,
      overwrite: args.overwrite,
    });
    const data = {
      sessionId: session.id,
      format: shot.format,
      path: shot.path,
      width: shot.width,
      height: shot.height,
      bytes: shot.bytes,
      renderMs: shot.renderMs,
    };
    const summary =
      `Screenshot of ${session.id} (${shot.width}x${shot.height} ` +
      `${shot.format.toUpperCase()}, ${shot.bytes} bytes) saved to ${shot.path}`;
    const link = fileLink(shot.path, shot.format === "png" ? "image/png" : "image/svg+xml");
    // One line of text naming the file (the summary says size and format): the picture is the content.
    const parts = {};
    if (typeof shot.content === "string")
      return { summary, data, parts, extraContent: [{ type: "text", text: shot.content }, link] };
    if (shot.bytes > MAX_INLINE_PNG_BYTES)
      return {
        summary: `${summary}; too large to inline, open the file`,
        data: { ...data, inlined: false },
        parts,
        extraContent: [link],
      };
    return {
      summary,
      data,
      parts,
      extraContent: [
        { type: "image", data: Buffer.from(shot.content).toString("base64"), mimeType: "image/png" },
        link,
      ],
    };
  },
});

/** Where recordings without a path go: TUI_TESTER_RECORD_DIR, else the output directory. */
const recordDir = (ctx: ToolContext) => ctx.config.recordDir ?? ctx.output.path;

/** Session info additions: the running recording's figures, and whether a human holds control. */
export function artifactInfo(session: Session, ctx: Pick<ToolContext, "takeovers">): Record<string, unknown> {
  const stats = recordingStats(session);
  return {
    ...(stats && !stats.closed ? { recording: { path: stats.path, events: stats.events, bytes: stats.bytes } } : {}),
    ...(ctx.takeovers.holder(session) !== undefined ? { humanInControl: true } : {}),
  };
}

export const webViewerTool = defineTool({
  name: "web_viewer",
  output: shape({ url: S }),
  description:
    "URL of a local page to watch every session live and take control (input tools then fail with HUMAN_IN_CONTROL).",
  input: v.strictObject({
    sessionId: v.optional(v.pipe(sessionId, v.description("Shown first. Default: the first running one."))),
  }),
  annotations: annotations("Web viewer", "read", true),
  async run(args, ctx) {
    if (args.sessionId !== undefined) ctx.sessions.get(args.sessionId);
    const url = ctx.web.url(args.sessionId);
    return { summary: `Web viewer: ${url} (give this URL to the person; it carries the access token)`, data: { url } };
  },
});

/**
 * start_session visible: "web": open the viewer in the default browser where there is a display, else return the URL
 * to pass on.
 */
export function openWebViewer(
  session: Session,
  ctx: ToolContext,
): { requested: true; open: boolean; url: string; terminal?: string; reason?: string } {
  const url = ctx.web.url(session.id);
  const launch = openBrowser(url, process.platform, ctx.env);
  return launch.opened
    ? { requested: true, open: true, terminal: "web browser", url }
    : {
        requested: true,
        open: false,
        url,
        reason: `${launch.reason}; give the person this URL to open in a browser: ${url}`,
      };
}

/**
 * Every tool acting on a session reports, once, that a human typed into it through the web viewer
 * since the agent's last successful call: its result gets `humanInput` and a note leading its summary
 * (one line: the renderer shows a newline in a summary as a literal "\n").
 */
export function withHumanInputNotice(tool: ToolDef): ToolDef {
  if (!("sessionId" in tool.input.entries)) return tool;
  return {
    ...tool,
    async run(args, ctx) {
      const outcome = await tool.run(args, ctx);
      const id = (args as { sessionId?: string }).sessionId;
      const notice = id === undefined ? undefined : ctx.takeovers.takeNotice(id);
      if (!notice) return outcome;
      return {
        ...outcome,
        summary:
          `Note: a human typed ${notice.bytes} bytes into ${id} through the web viewer ` +
          `between ${notice.firstInputAt} and ${notice.lastInputAt} (control released ` +
          `${notice.releasedAt}); the screen may have changed. ${outcome.summary}`,
        data: { ...outcome.data, humanInput: notice },
      };
    },
  };
}
