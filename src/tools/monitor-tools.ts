/** Frame recording: start_monitor, stop_monitor. */
import * as v from "valibot";
import { DEFAULT_MONITOR_BYTES, type MonitorReport } from "../monitor/monitor.ts";
import { annotations, defineSessionTool, defineTool } from "./define.ts";
import { clampedNumber, optionalBoolean, sessionId } from "./schemas.ts";
import { monitorReportFields, S, shape, unlisted } from "./output-shape.ts";
import { fieldsWithout, type ReplyParts } from "./reply.ts";
import { cursorAt, diffLines, screenText } from "./render-text.ts";

/** A monitor's frames as the model reads them: the first whole, later ones as changed rows; unchanged ones left out. */
export function monitorParts(report: MonitorReport): ReplyParts {
  const lines: string[] = [];
  for (const [i, frame] of report.frames.entries()) {
    if (i > 0 && frame.changed === false) continue;
    lines.push(`Frame ${i} at +${frame.offsetMs} ms${frame.cursor ? `, cursor ${cursorAt(frame.cursor)}` : ""}:`);
    if (frame.diff && !(i === 0 && frame.text !== undefined))
      lines.push(...diffLines({ diff: frame.diff, rows: "after" }));
    else if (frame.text !== undefined) lines.push(...screenText(frame.text).split("\n"));
  }
  return {
    fields: fieldsWithout({ ...report }, "frames", "finalText"),
    lines,
    blocks: ["Final screen:", screenText(report.finalText)],
  };
}

export const monitorEntries = {
  intervalMs: clampedNumber(10, 60_000, 100, "Min gap between frames."),
  keepIdenticalFrames: optionalBoolean(false, "Also record unchanged frames."),
  maxFrames: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.maxValue(100_000),
      v.description("Later frames are dropped, counted in droppedFrames."),
    ),
    5000,
  ),
  maxBytes: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1024),
      v.maxValue(64 * 1024 * 1024),
      v.description("Frame budget in bytes; past it, truncated: true."),
    ),
    DEFAULT_MONITOR_BYTES,
  ),
};

export const startMonitorTool = defineSessionTool({
  name: "start_monitor",
  describes: { inputs: { monitor: "arguments" } },
  output: shape(
    { monitorId: S },
    unlisted<{ intervalMs: number; keepIdenticalFrames: boolean; maxFrames: number; maxBytes: number }>(),
  ),
  description: "Record screen frames (text, cursor, row diff) of animations or streaming output until stop_monitor.",
  input: v.strictObject({ sessionId, ...monitorEntries }),
  annotations: annotations("Start monitor", "write", false),
  allowExited: true,
  queued: false,
  async act(session, args, ctx) {
    const monitor = ctx.monitors.start(session, args);
    return { summary: `Recording ${session.id} as ${monitor.id}`, data: { ...args, monitorId: monitor.id } };
  },
});

export const stopMonitorTool = defineTool({
  name: "stop_monitor",
  describes: { outputs: 1 },
  output: shape(monitorReportFields, unlisted<{ bytes: number; maxBytes: number; endedBySessionExit: true }>()),
  description: "Stop a monitor; returns its frames (the first whole, later ones row diffs) and the final text.",
  input: v.strictObject({ monitorId: v.pipe(v.string(), v.minLength(1)) }),
  annotations: annotations("Stop monitor", "write", false),
  async run(args, ctx) {
    const report = ctx.monitors.stop(args.monitorId);
    const cut = report.truncated ? `; ${report.droppedFrames} later frames dropped (maxFrames/maxBytes reached)` : "";
    const ended = report.endedBySessionExit ? `; recording ended when ${report.sessionId} exited` : "";
    const summary =
      `${report.frameCount} frames (${report.changedFrameCount} changed) over ` +
      `${report.durationMs} ms${cut}${ended}`;
    return { summary, data: { ...report }, parts: monitorParts(report) };
  },
});
