/** Frame recording: start_monitor, stop_monitor. */
import * as v from "valibot";
import { DEFAULT_MONITOR_BYTES } from "../monitor/monitor.ts";
import { annotations, defineSessionTool, defineTool } from "./define.ts";
import { clampedNumber, optionalBoolean, sessionId } from "./schemas.ts";

export const monitorEntries = {
  intervalMs: clampedNumber(10, 60_000, 100, "Minimum gap between frames in ms; every change is caught at the next boundary."),
  keepIdenticalFrames: optionalBoolean(false, "Also record a frame every interval when nothing changed."),
  maxFrames: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000), v.description("Stop keeping frames after this many (droppedFrames counts the rest). Default 5000.")), 5000),
  maxBytes: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1024), v.maxValue(64 * 1024 * 1024), v.description(`Budget for the kept frames' text and diffs; past it recording stops (truncated: true). Default ${DEFAULT_MONITOR_BYTES}.`)),
    DEFAULT_MONITOR_BYTES,
  ),
};

export const startMonitor = defineSessionTool({
  name: "start_monitor",
  description: "Start recording screen frames (text, cursor, row diff) of a session, for animations, spinners and streaming output. Returns monitorId for stop_monitor.",
  input: v.strictObject({ sessionId, ...monitorEntries }),
  annotations: annotations("Start monitor", "write", false),
  allowExited: true,
  async act(session, args, ctx) {
    const monitor = ctx.monitors.start(session, args);
    return { summary: `Recording ${session.id} as ${monitor.id}`, data: { ...args, monitorId: monitor.id } };
  },
});

export const stopMonitor = defineTool({
  name: "stop_monitor",
  description: "Stop a monitor and return its frames: frameCount, changedFrameCount, durationMs, droppedFrames, truncated, finalText, frames[{takenAt, offsetMs, changed, cursor, diff}]; the first frame (and any after a resize) also has the whole text, the others only their row diff.",
  input: v.strictObject({ monitorId: v.pipe(v.string(), v.minLength(1), v.description("Id returned by start_monitor.")) }),
  annotations: annotations("Stop monitor", "write", false),
  async run(args, ctx) {
    const report = ctx.monitors.stop(args.monitorId);
    const cut = report.truncated ? `; ${report.droppedFrames} later frames dropped (maxFrames/maxBytes reached)` : "";
    return { summary: `${report.frameCount} frames (${report.changedFrameCount} changed) over ${report.durationMs} ms${cut}`, data: { ...report } };
  },
});
