/**
 * A recording played into a headless emulator, yielding the screen at chosen moments: after every
 * slot of 1/fps seconds in which output arrived (GIF frames), or at given times (a report's step
 * screens). Screens that did not change are merged into the previous one.
 */
import type { Cast, CastEvent } from "../record/cast-file.ts";
import { Emulator } from "../term/emulator.ts";
import { MAX_COLS, MAX_ROWS } from "../term/size.ts";
import type { Colours } from "../term/theme.ts";
import type { TerminalTheme } from "../term/types.ts";
import type { ScreenImage } from "./svg.ts";

export interface ReplayFrame {
  /** When this screen appears, in playback ms. */
  atMs: number;
  screen: ScreenImage;
  colours: Colours;
  /** The screen's content and attributes as one string: equal keys draw the same picture. */
  key: string;
}

/** Frames beyond this are not produced (a GIF of them would be hundreds of MB); the caller says so. */
export const MAX_FRAMES = 20_000;

/** A terminal the recording is replayed into: no history, and nothing answers the app. */
function replayEmulator(cast: Pick<Cast, "cols" | "rows">, theme?: Partial<TerminalTheme>): Emulator {
  return new Emulator({
    cols: cast.cols,
    rows: cast.rows,
    reply: () => undefined,
    scrollback: 0,
    ...(theme ? { theme } : {}),
  });
}

/** Replays `events` (already retimed) and yields a frame for each slot of `slotMs` that changed the screen. */
export async function* replayFrames(
  cast: Pick<Cast, "cols" | "rows">,
  events: CastEvent[],
  slotMs: number,
  theme?: Partial<TerminalTheme>,
): AsyncGenerator<ReplayFrame> {
  const emulator = replayEmulator(cast, theme);
  try {
    let lastKey = "";
    let i = 0;
    let produced = 0;
    // The screen before any output, when the first output comes later than one slot in.
    if ((events[0]?.atMs ?? Infinity) >= slotMs) {
      const first = await capture(emulator, 0);
      lastKey = first.key;
      yield first;
    }
    while (i < events.length && produced < MAX_FRAMES) {
      // Everything up to the end of this event's slot is one frame.
      // 1e-9: 1000 / (1000 / 30) is 29.999…
      const slotEnd = (Math.floor(events[i]!.atMs / slotMs + 1e-9) + 1) * slotMs;
      const slotStart = events[i]!.atMs;
      while (i < events.length && events[i]!.atMs < slotEnd) await apply(emulator, events[i++]!);
      await emulator.flushed();
      const frame = await capture(emulator, slotStart);
      if (frame.key === lastKey) continue;
      lastKey = frame.key;
      produced++;
      yield frame;
    }
  } finally {
    emulator.dispose();
  }
}

/** The screen at each of `timesMs` (sorted), after every event at or before that time. */
export async function screensAt(
  cast: Pick<Cast, "cols" | "rows">,
  events: CastEvent[],
  timesMs: number[],
  theme?: Partial<TerminalTheme>,
): Promise<ReplayFrame[]> {
  const emulator = replayEmulator(cast, theme);
  try {
    const out: ReplayFrame[] = [];
    let i = 0;
    for (const at of timesMs) {
      while (i < events.length && events[i]!.atMs <= at) await apply(emulator, events[i++]!);
      await emulator.flushed();
      out.push(await capture(emulator, at));
    }
    return out;
  } finally {
    emulator.dispose();
  }
}

/** Writes are parsed later and a resize happens now, so a resize waits for the output before it. */
async function apply(emulator: Emulator, event: CastEvent): Promise<void> {
  if (event.code === "o") emulator.write(event.data);
  else if (event.code === "r") {
    await emulator.flushed();
    const [cols, rows] = event.data.split("x").map(Number);
    if (
      Number.isInteger(cols) &&
      Number.isInteger(rows) &&
      cols! >= 1 &&
      rows! >= 1 &&
      cols! <= MAX_COLS &&
      rows! <= MAX_ROWS
    )
      emulator.resize(cols!, rows!);
  }
}

async function capture(emulator: Emulator, atMs: number): Promise<ReplayFrame> {
  const snap = emulator.snapshot({ grid: true });
  const cells = snap.grid ?? [];
  const colours = emulator.liveColours();
  const cursorShape = emulator.cursorShape();
  const screen: ScreenImage = { cols: snap.cols, rows: snap.rows, cells, cursor: snap.cursor, cursorShape };
  const key = JSON.stringify([snap.cols, snap.rows, snap.cursor, cursorShape, colours.bg, colours.fg, cells]);
  return { atMs, screen, colours, key };
}
