/**
 * Mouse reports as xterm sends them (xterm ctlseqs, "Mouse Tracking"): the event set depends on the
 * tracking mode the app enabled (9 X10, 1000 normal, 1002 button-event, 1003 any-event) and the
 * byte format on the encoding (default, 1005 UTF-8, 1006 SGR, 1015 urxvt, 1016 SGR-pixels).
 */
import { TuiError } from "../errors.ts";
import type { MouseEncoding, MouseTracking } from "../term/types.ts";

export type MouseButton = "left" | "middle" | "right";
export type MouseEventKind = "press" | "release" | "motion" | "wheel_up" | "wheel_down";

export interface MouseEvent {
  kind: MouseEventKind;
  button: MouseButton;
  /** 0-based cell coordinates. */
  row: number;
  col: number;
  shift: boolean;
  alt: boolean;
  ctrl: boolean;
  /** For motion: whether a button is held (drag) or not (hover). */
  buttonHeld: boolean;
}

/** Pixel size assumed for one cell in SGR-pixels (1016) reports; the emulator has no real pixels. */
export const CELL_PIXELS = { width: 8, height: 16 };

const BUTTON_CODE: Record<MouseButton, number> = { left: 0, middle: 1, right: 2 };

/** Whether the tracking mode reports this event at all. */
export function reported(tracking: MouseTracking, event: MouseEvent): boolean {
  switch (tracking) {
    case "none":
      return false;
    case "x10": // X10 compatibility: button presses only
      return event.kind === "press" || event.kind === "wheel_up" || event.kind === "wheel_down";
    case "vt200":
      return event.kind !== "motion";
    case "drag":
      return event.kind !== "motion" || event.buttonHeld;
    case "any":
      return true;
  }
}

function buttonByte(tracking: MouseTracking, event: MouseEvent, sgr: boolean): number {
  let code: number;
  if (event.kind === "wheel_up") code = 64;
  else if (event.kind === "wheel_down") code = 65;
  else if (event.kind === "release" && !sgr)
    code = 3; // legacy encodings cannot say which button was released
  else if (event.kind === "motion") code = (event.buttonHeld ? BUTTON_CODE[event.button] : 3) + 32;
  else code = BUTTON_CODE[event.button];
  // X10 mode reports no modifiers.
  if (tracking !== "x10") code += (event.shift ? 4 : 0) + (event.alt ? 8 : 0) + (event.ctrl ? 16 : 0);
  return code;
}

const utf8 = new TextEncoder();

/** The report as bytes: the default encoding puts raw bytes up to 0xff on the wire, not UTF-8. */
export function encodeMouse(tracking: MouseTracking, encoding: MouseEncoding, event: MouseEvent): Uint8Array {
  const report = encodeMouseString(tracking, encoding, event);
  return encoding === "default" ? Uint8Array.from(report, (ch) => ch.charCodeAt(0)) : utf8.encode(report);
}

function encodeMouseString(tracking: MouseTracking, encoding: MouseEncoding, event: MouseEvent): string {
  const x = event.col + 1;
  const y = event.row + 1;
  switch (encoding) {
    case "sgr":
    case "sgr-pixels": {
      const code = buttonByte(tracking, event, true);
      const final = event.kind === "release" ? "m" : "M";
      if (encoding === "sgr") return `\x1b[<${code};${x};${y}${final}`;
      const px = event.col * CELL_PIXELS.width + CELL_PIXELS.width / 2 + 1;
      const py = event.row * CELL_PIXELS.height + CELL_PIXELS.height / 2 + 1;
      return `\x1b[<${code};${px};${py}${final}`;
    }
    case "urxvt":
      return `\x1b[${buttonByte(tracking, event, false) + 32};${x};${y}M`;
    case "utf8":
      return `\x1b[M${String.fromCodePoint(buttonByte(tracking, event, false) + 32)}${utf8Coord(x)}${utf8Coord(y)}`;
    case "default": {
      // Each value travels as one byte + 32, so coordinates above 223 cannot be expressed.
      if (x > 223 || y > 223) {
        throw new TuiError(
          "INVALID_ARGUMENT",
          `Cell (${event.row}, ${event.col}) is beyond column/row 223, which the app's ` +
            `default mouse encoding cannot express.`,
          "The app should enable SGR mouse mode (1006); or click a cell nearer the top left.",
        );
      }
      return `\x1b[M${String.fromCharCode(buttonByte(tracking, event, false) + 32, x + 32, y + 32)}`;
    }
  }
}

function utf8Coord(v: number): string {
  if (v + 32 > 2047)
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Coordinate ${v} is beyond what UTF-8 mouse mode (1005) can express (2015).`,
      "Click a cell nearer the top left.",
    );
  return String.fromCodePoint(v + 32);
}
