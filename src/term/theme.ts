/**
 * The colours the emulator reports to apps that ask (OSC 4 / 10 / 11 / 12) and lets them change.
 * Headless xterm.js keeps no colour state of its own, so this is the terminal's colour table.
 * Colour syntax is XParseColor as xterm accepts it (xterm ctlseqs, "Operating System Commands").
 */
import type { TerminalTheme } from "./types.ts";

/** xterm's own defaults for the 16 ANSI colours (XTerm-col.ad). */
const XTERM_16 = [
  "#000000",
  "#cd0000",
  "#00cd00",
  "#cdcd00",
  "#0000ee",
  "#cd00cd",
  "#00cdcd",
  "#e5e5e5",
  "#7f7f7f",
  "#ff0000",
  "#00ff00",
  "#ffff00",
  "#5c5cff",
  "#ff00ff",
  "#00ffff",
  "#ffffff",
];

export const DEFAULT_THEME: TerminalTheme = {
  foreground: "#e5e5e5",
  background: "#000000",
  cursor: "#e5e5e5",
  ansi: XTERM_16,
};

const hex2 = (n: number) => n.toString(16).padStart(2, "0");

/** Indexes 16..255: the 6x6x6 colour cube (16..231) and the 24-step grey ramp (232..255), as in xterm's 256colres.h. */
function extendedColour(index: number): string {
  if (index < 232) {
    const levels = [0, 95, 135, 175, 215, 255];
    const i = index - 16;
    const r = levels[Math.floor(i / 36)] ?? 0;
    const g = levels[Math.floor(i / 6) % 6] ?? 0;
    const b = levels[i % 6] ?? 0;
    return `#${hex2(r)}${hex2(g)}${hex2(b)}`;
  }
  const grey = 8 + 10 * (index - 232);
  return `#${hex2(grey)}${hex2(grey)}${hex2(grey)}`;
}

/** The full 256-entry palette for a theme: its 16 ANSI colours (missing ones from xterm) plus cube and greys. */
export function palette256(ansi: readonly string[] = XTERM_16): string[] {
  const out: string[] = [];
  for (let i = 0; i < 256; i++) out.push(i < 16 ? (normalise(ansi[i]) ?? XTERM_16[i]!) : extendedColour(i));
  return out;
}

function normalise(colour: string | undefined): string | null {
  return colour === undefined ? null : parseColorSpec(colour);
}

/**
 * XParseColor subset: `rgb:R/G/B` with 1-4 hex digits per channel, and `#RGB`, `#RRGGBB`,
 * `#RRRGGGBBB`, `#RRRRGGGGBBBB`. Returns "#rrggbb" or null (colour names are not supported).
 */
export function parseColorSpec(spec: string): string | null {
  const s = spec.trim().toLowerCase();
  const scale = (h: string) => Math.round((parseInt(h, 16) * 255) / (16 ** h.length - 1));
  const rgb = /^rgb:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})$/.exec(s);
  if (rgb) return `#${hex2(scale(rgb[1]!))}${hex2(scale(rgb[2]!))}${hex2(scale(rgb[3]!))}`;
  const sharp = /^#((?:[0-9a-f]{3}){1,4})$/.exec(s);
  if (sharp) {
    // In the #-forms each channel's digits are its most significant bits (XParseColor), not a scale.
    const digits = sharp[1]!;
    const n = digits.length / 3;
    const channel = (k: number) =>
      parseInt(
        digits
          .slice(k * n, k * n + n)
          .padEnd(2, "0")
          .slice(0, 2),
        16,
      );
    return `#${hex2(channel(0))}${hex2(channel(1))}${hex2(channel(2))}`;
  }
  return null;
}

/** "#rrggbb" as the 16-bit-per-channel `rgb:rrrr/gggg/bbbb` xterm uses in colour reports. */
export function toXColor(colour: string): string {
  const c = parseColorSpec(colour) ?? "#000000";
  const channel = (k: number) => c.slice(1 + 2 * k, 3 + 2 * k).repeat(2);
  return `rgb:${channel(0)}/${channel(1)}/${channel(2)}`;
}

export type DynamicColour = "foreground" | "background" | "cursor";

/** The colours a picture of the screen is drawn with (src/render). */
export interface Colours {
  fg: string;
  bg: string;
  cursor: string;
  palette: readonly string[];
}

/** The live colour table: the configured theme, as modified by the app's OSC sets and resets. */
export class ColourTable {
  private readonly initial: { foreground: string; background: string; cursor: string; palette: string[] };
  private current: { foreground: string; background: string; cursor: string; palette: string[] };

  constructor(theme: Partial<TerminalTheme> = {}) {
    const foreground = normalise(theme.foreground) ?? DEFAULT_THEME.foreground;
    this.initial = {
      foreground,
      background: normalise(theme.background) ?? DEFAULT_THEME.background,
      cursor: normalise(theme.cursor) ?? foreground,
      palette: palette256(theme.ansi),
    };
    this.current = { ...this.initial, palette: [...this.initial.palette] };
  }

  dynamic(which: DynamicColour): string {
    return this.current[which];
  }

  setDynamic(which: DynamicColour, colour: string): void {
    this.current[which] = colour;
  }

  resetDynamic(which: DynamicColour): void {
    this.current[which] = this.initial[which];
  }

  /** Palette entry 0..255, or undefined for an index out of range. */
  indexed(index: number): string | undefined {
    return this.current.palette[index];
  }

  setIndexed(index: number, colour: string): void {
    if (index >= 0 && index < 256) this.current.palette[index] = colour;
  }

  /** OSC 104 with no index resets the whole palette; with indexes, just those. */
  resetIndexed(index?: number): void {
    if (index === undefined) this.current.palette = [...this.initial.palette];
    else if (index >= 0 && index < 256) this.current.palette[index] = this.initial.palette[index]!;
  }

  /** The colours in force now, for pictures of the screen (src/render). */
  live(): Colours {
    const { foreground, background, cursor, palette } = this.current;
    return { fg: foreground, bg: background, cursor, palette: [...palette] };
  }

  /** RIS restores every colour. */
  reset(): void {
    this.current = { ...this.initial, palette: [...this.initial.palette] };
  }
}
