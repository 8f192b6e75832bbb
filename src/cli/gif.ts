/** `tui-tester gif IN.cast OUT.gif`: a recording as an animated GIF, from the command line. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { themeProblem, type Config } from "../config.ts";
import { toTuiError } from "../errors.ts";
import { readCast } from "../record/cast-file.ts";
import { castToGif, type GifOptions } from "../render/gif.ts";
import type { TerminalTheme } from "../term/types.ts";
import { UsageError } from "./args.ts";
import type { CommandResult } from "./command.ts";

export const GIF_HELP = `Usage: tui-tester gif [options] IN.cast OUT.gif

Draws an asciicast recording (start_recording, --record-failures, asciinema rec) as an animated
GIF: every screen the recording shows, drawn like the screenshot tool's PNGs. Long pauses are
shortened, and a screen that does not change is one frame.

Options:
  --speed N       Playback speed (default 1; 2 is twice as fast).
  --max-idle S    Pauses longer than S seconds are cut to S (default 2).
  --fps N         Highest frame rate, 1 to 50 (default 30): screens shown for less than 1/N s
                  are merged into the next one.
  --scale N       Zoom, 0.5 to 4 (default 1: 9x18 pixels per cell).
  --theme T       dark (default), light, or JSON as TUI_TESTER_THEME takes.
  --overwrite     Replace OUT.gif when it exists (refused otherwise).
  --help, -h      Show this help.
`;

export const THEMES: Record<string, Partial<TerminalTheme>> = {
  dark: {},
  light: { background: "#ffffff", foreground: "#1e1e1e", cursor: "#1e1e1e" },
};

export function parseTheme(value: string): Partial<TerminalTheme> {
  if (THEMES[value]) return THEMES[value]!;
  const problem = themeProblem(value);
  if (problem) throw new UsageError(`--theme must be dark, light or a JSON theme: ${problem}.`);
  return JSON.parse(value) as Partial<TerminalTheme>;
}

function number(name: string, value: string | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, got "${value.slice(0, 40)}".`);
  return n;
}

export function parseGifArgs(
  argv: string[],
): { input: string; output: string; options: GifOptions; overwrite: boolean } | "help" {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        speed: { type: "string" },
        "max-idle": { type: "string" },
        fps: { type: "string" },
        scale: { type: "string" },
        theme: { type: "string" },
        overwrite: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help) return "help";
  if (positionals.length !== 2)
    throw new UsageError(`gif takes two paths, IN.cast and OUT.gif (got ${positionals.length}).`);
  const options: GifOptions = {
    speed: number("speed", values.speed, 0.1, 100, 1),
    maxIdleMs: number("max-idle", values["max-idle"], 0.01, 3600, 2) * 1000,
    fps: number("fps", values.fps, 1, 50, 30),
    scale: number("scale", values.scale, 0.5, 4, 1),
    ...(values.theme !== undefined ? { theme: parseTheme(values.theme) } : {}),
  };
  return { input: positionals[0]!, output: positionals[1]!, options, overwrite: values.overwrite === true };
}

export async function gifCommand(argv: string[], config: Config): Promise<CommandResult> {
  const err = (text: string) => void process.stderr.write(text);
  let args: ReturnType<typeof parseGifArgs>;
  try {
    args = parseGifArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`tui-tester gif: ${error.message}\nRun "tui-tester gif --help" for usage.\n`);
    return { code: 2, stdout: "" };
  }
  if (args === "help") return { code: 0, stdout: GIF_HELP };
  const output = resolve(args.output);
  if (existsSync(output) && !args.overwrite) {
    err(`tui-tester gif: ${args.output} already exists; pass --overwrite to replace it.\n`);
    return { code: 2, stdout: "" };
  }
  try {
    const started = performance.now();
    const cast = await readCast(resolve(args.input));
    const gif = await castToGif(cast, { ...args.options, fonts: config.fonts });
    await Bun.write(output, gif.gif);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const size = `${(gif.gif.length / 1024).toFixed(0)} KiB`;
    err(
      `${args.output}: ${gif.frames} frames, ${gif.width}x${gif.height}, ` +
        `${(gif.durationMs / 1000).toFixed(1)} s, ${size}, made in ${seconds} ` +
        `s${gif.truncated ? " (truncated at the frame limit)" : ""}\n`,
    );
    return { code: 0, stdout: "" };
  } catch (error) {
    const e = toTuiError(error);
    err(`tui-tester gif: ${e.message}${e.hint ? `\n${e.hint}` : ""}\n`);
    return { code: 1, stdout: "" };
  }
}
