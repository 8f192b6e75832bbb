/**
 * Reading asciicast files back: v2 (what src/record writes; times since the start) and v3 (what
 * asciinema 3 writes; times since the previous event). Events come back with absolute times in ms.
 * https://docs.asciinema.org/manual/asciicast/v2/ and .../v3/
 */
import { TuiError } from "../errors.ts";
import { MAX_COLS, MAX_ROWS } from "../term/size.ts";

export interface CastEvent {
  /** Milliseconds since the recording started. */
  atMs: number;
  code: string;
  data: string;
}

export interface Cast {
  cols: number;
  rows: number;
  title?: string;
  events: CastEvent[];
  /** Time of the last event. */
  durationMs: number;
}

/** A cast larger than this is refused rather than read into memory (the writer caps files at 512 MiB). */
export const MAX_CAST_READ_BYTES = 256 * 1024 * 1024;

function bad(where: string, problem: string): TuiError {
  return new TuiError(
    "INVALID_ARGUMENT",
    `${where}: ${problem}`,
    "Pass an asciicast v2 or v3 file, as start_recording, --record-failures or asciinema rec write them.",
  );
}

export function parseCast(text: string, name = "recording"): Cast {
  const lines = text.split("\n");
  let header: Record<string, unknown>;
  try {
    header = JSON.parse(lines[0] ?? "") as Record<string, unknown>;
  } catch {
    throw bad(name, "line 1 is not an asciicast header (a JSON object)");
  }
  const version = header?.version;
  if (version !== 2 && version !== 3)
    throw bad(name, `asciicast version ${JSON.stringify(version)?.slice(0, 20)} is not 2 or 3`);
  const term = (version === 3 ? header.term : header) as
    | { cols?: unknown; rows?: unknown; width?: unknown; height?: unknown }
    | undefined;
  const cols = Number(version === 3 ? term?.cols : term?.width);
  const rows = Number(version === 3 ? term?.rows : term?.height);
  if (
    !Number.isInteger(cols) ||
    !Number.isInteger(rows) ||
    cols < 1 ||
    rows < 1 ||
    cols > MAX_COLS ||
    rows > MAX_ROWS
  ) {
    throw bad(name, `the header has no terminal size within 1x1..${MAX_COLS}x${MAX_ROWS}`);
  }
  const events: CastEvent[] = [];
  let clock = 0;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      // A recording cut off mid-line by a crash still plays up to there, as asciinema does.
      if (i === lines.length - 1) break;
      throw bad(`${name} line ${i + 1}`, "not a JSON event");
    }
    if (
      !Array.isArray(event) ||
      typeof event[0] !== "number" ||
      typeof event[1] !== "string" ||
      typeof event[2] !== "string"
    ) {
      throw bad(`${name} line ${i + 1}`, "an event is [time, code, data]");
    }
    clock = version === 3 ? clock + event[0] * 1000 : Math.max(clock, event[0] * 1000);
    events.push({ atMs: clock, code: event[1], data: event[2] });
  }
  const title = typeof header.title === "string" ? header.title : undefined;
  return { cols, rows, ...(title ? { title } : {}), events, durationMs: clock };
}

/** Read and parse a cast file, with its size bounded. */
export async function readCast(path: string): Promise<Cast> {
  const file = Bun.file(path);
  if (!(await file.exists()))
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Recording "${path.slice(0, 200)}" does not exist.`,
      "Pass the path of a .cast file (stop_recording returns it).",
    );
  if (file.size > MAX_CAST_READ_BYTES) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Recording "${path.slice(0, 200)}" is ${Math.round(file.size / 2 ** 20)} MiB, ` +
        `over the ${MAX_CAST_READ_BYTES / 2 ** 20} MiB limit.`,
      "Cut the recording shorter (asciinema cut) first.",
    );
  }
  return parseCast(await file.text(), path);
}

/**
 * Playback times: pauses longer than `maxIdleMs` shortened to it, then everything divided by `speed`
 * (asciinema play's --idle-time-limit and --speed).
 */
export function retime(events: CastEvent[], options: { speed: number; maxIdleMs: number }): CastEvent[] {
  let last = 0;
  let shifted = 0;
  return events.map((event) => {
    const gap = event.atMs - last;
    last = event.atMs;
    shifted += Math.min(gap, options.maxIdleMs);
    return { ...event, atMs: shifted / options.speed };
  });
}
