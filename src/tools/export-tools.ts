/** export_recording: an asciicast file (stop_recording's path) as an animated GIF, as `tui-tester gif` makes it. */
import { basename, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import * as v from "valibot";
import { readCast } from "../record/cast-file.ts";
import { castToGif } from "../render/gif.ts";
import { artifactPath } from "../util/artifact-path.ts";
import { annotations, defineTool } from "./define.ts";
import { B, N, S, shape } from "./output-shape.ts";
import { optionalBoolean } from "./schemas.ts";

const filePath = (what: string) => v.pipe(v.string(), v.minLength(1), v.maxLength(4096), v.description(what));

export const exportRecordingTool = defineTool({
  name: "export_recording",
  output: shape({ out: S, format: S, frames: N, width: N, height: N, bytes: N, durationMs: N, truncated: B }),
  description:
    "Draw an asciicast recording as a GIF (every screen; pauses over maxIdleMs cut) " +
    "saved to out; an existing out needs overwrite.",
  input: v.strictObject({
    path: filePath("The .cast file, relative to the server's cwd."),
    out: filePath("The .gif to write."),
    format: v.optional(v.picklist(["gif"]), "gif"),
    speed: v.optional(v.pipe(v.number(), v.minValue(0.1), v.maxValue(100)), 1),
    maxIdleMs: v.optional(v.pipe(v.number(), v.minValue(10), v.maxValue(3_600_000)), 2000),
    fps: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50)), 30),
    scale: v.optional(v.pipe(v.number(), v.minValue(0.5), v.maxValue(4)), 1),
    overwrite: optionalBoolean(false),
  }),
  // Writes a file: not read-only; the same arguments write the same GIF again.
  annotations: annotations("Export recording", "write", true),
  async run(args, ctx) {
    const out = artifactPath(args.out, ".", "unused.gif", ctx.cwd, args.overwrite);
    const started = performance.now();
    const cast = await readCast(resolve(ctx.cwd, args.path));
    const gif = await castToGif(cast, {
      speed: args.speed,
      maxIdleMs: args.maxIdleMs,
      fps: args.fps,
      scale: args.scale,
      fonts: ctx.config.fonts,
      signal: ctx.signal,
    });
    await Bun.write(out, gif.gif);
    const data = {
      out,
      format: "gif",
      frames: gif.frames,
      width: gif.width,
      height: gif.height,
      bytes: gif.gif.length,
      durationMs: gif.durationMs,
      truncated: gif.truncated,
    };
    const took = Math.round(performance.now() - started);
    return {
      summary:
        `GIF of ${args.path}: ${gif.frames} frames, ${gif.width}x${gif.height}, ` +
        `${(gif.durationMs / 1000).toFixed(1)} s, ${gif.gif.length} bytes, saved to ` +
        `${out} in ${took} ms${gif.truncated ? " (stopped at the frame limit)" : ""}`,
      data,
      extraContent: [
        { type: "resource_link", uri: pathToFileURL(out).href, name: basename(out), mimeType: "image/gif" },
      ],
    };
  },
});
