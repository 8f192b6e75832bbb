/**
 * Paste and mouse input on a session: bytes that depend on modes the app switched on (bracketed
 * paste, mouse tracking and encoding). Shared by the paste and mouse tools and by `Terminal`.
 */
import { TuiError } from "../errors.ts";
import { encodeMouse, reported, type MouseButton, type MouseEvent, type MouseEventKind } from "../mouse/encode.ts";
import { compileMatcher } from "../session/matcher.ts";
import type { Session } from "../session/session.ts";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** In ESC[200~ ... ESC[201~ when the app enabled bracketed paste (mode 2004), else plain. */
export function pasteText(
  session: Session,
  text: string,
): { bytesSent: number; bracketed: boolean; sanitized: boolean } {
  const bracketed = session.modes().bracketedPaste;
  // Like xterm, drop an embedded end marker so pasted text cannot end the paste early.
  const body = bracketed ? text.replaceAll(PASTE_END, "") : text;
  const bytes = new TextEncoder().encode(bracketed ? PASTE_START + body + PASTE_END : body);
  session.write(bytes);
  return { bytesSent: bytes.length, bracketed, sanitized: body.length !== text.length };
}

export const describePaste = (r: { bytesSent: number; bracketed: boolean }) =>
  `Pasted ${r.bytesSent} bytes${r.bracketed ? " (bracketed)" : " (plain: the app has not enabled bracketed paste)"}`;

export const MOUSE_ACTIONS = [
  "click",
  "double_click",
  "press",
  "release",
  "drag",
  "move",
  "wheel_up",
  "wheel_down",
] as const;
export type MouseAction = (typeof MOUSE_ACTIONS)[number];

/** Where a mouse event goes: a cell (0-based), or the middle of a text's first on-screen match. */
export interface MouseTarget {
  row?: number;
  col?: number;
  text?: string;
  regex?: boolean;
}

export interface MouseArgs extends MouseTarget {
  action: MouseAction;
  button?: MouseButton;
  /** Where a drag ends. */
  toRow?: number;
  toCol?: number;
  toText?: string;
  shift?: boolean;
  alt?: boolean;
  ctrl?: boolean;
}

type Cell = { row: number; col: number };

/** The encoded events of a mouse action, checked against the app's tracking mode before anything is sent. */
export async function planMouse(session: Session, args: MouseArgs) {
  const modes = session.modes();
  if (modes.mouseTracking === "none") {
    throw new TuiError(
      "MOUSE_NOT_ENABLED",
      "The app has not enabled mouse tracking, so mouse reports would reach it as stray key presses.",
      "Check that the app supports the mouse (list_sessions shows modes.mouseTracking), or drive it with send_keys.",
    );
  }
  const regex = args.regex ?? false;
  const from = await locate(session, { row: args.row, col: args.col, text: args.text, regex }, "");
  const to =
    args.action === "drag"
      ? await locate(session, { row: args.toRow, col: args.toCol, text: args.toText, regex }, "to")
      : from;
  const base = {
    button: args.button ?? "left",
    shift: args.shift ?? false,
    alt: args.alt ?? false,
    ctrl: args.ctrl ?? false,
  };
  const at = (kind: MouseEventKind, cell: Cell, buttonHeld = false): MouseEvent => ({
    ...base,
    kind,
    ...cell,
    buttonHeld,
  });
  const plan: MouseEvent[] = {
    click: [at("press", from), at("release", from)],
    double_click: [at("press", from), at("release", from), at("press", from), at("release", from)],
    press: [at("press", from)],
    release: [at("release", from)],
    drag: [at("press", from), at("motion", to, true), at("release", to)],
    move: [at("motion", from)],
    wheel_up: [at("wheel_up", from)],
    wheel_down: [at("wheel_down", from)],
  }[args.action];
  const sent = plan.filter((event) => reported(modes.mouseTracking, event));
  if (sent.length === 0) {
    throw new TuiError(
      "MOUSE_NOT_ENABLED",
      `The app's mouse mode (${modes.mouseTracking}) does not report ${args.action} events.`,
      "Use click/press, or an app mode that tracks motion (1002/1003).",
    );
  }
  const bytes = sent.map((event) => encodeMouse(modes.mouseTracking, modes.mouseEncoding, event));
  /** Sends the planned events (call it inside observeInput). */
  const send = () => {
    for (const chunk of bytes) session.write(chunk);
    return {
      action: args.action,
      at: from,
      ...(args.action === "drag" ? { to } : {}),
      events: sent.map((e) => e.kind),
      bytesSent: bytes.reduce((n, b) => n + b.length, 0),
      tracking: modes.mouseTracking,
      encoding: modes.mouseEncoding,
    };
  };
  const describe = (r: { tracking: string; encoding: string }) =>
    `Mouse ${args.action} at row ${from.row}, col ${from.col} (${r.tracking}/${r.encoding})`;
  return { send, describe };
}

async function locate(session: Session, target: MouseTarget, prefix: string): Promise<Cell> {
  const name = (k: string) => (prefix ? `${prefix}${k[0]!.toUpperCase()}${k.slice(1)}` : k);
  const { row, col, text } = target;
  if (text !== undefined) {
    using matcher = compileMatcher({ pattern: text, regex: target.regex });
    const lines = session.emulator.snapshot().lines;
    for (const [r, line] of lines.entries()) {
      const found = await matcher.find(line);
      if (found) return { row: r, col: found.index + Math.floor(Math.max(0, found.length - 1) / 2) };
    }
    throw new TuiError(
      "TEXT_NOT_FOUND",
      `"${text}" is not on the screen.`,
      "Check the screen with get_text, or give row/col.",
    );
  }
  if (row === undefined || col === undefined) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Give ${name("row")} and ${name("col")}, or ${name("text")}.`,
      'Example: { "action": "click", "text": "OK" }.',
    );
  }
  if (row >= session.rows || col >= session.cols) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Cell (${row}, ${col}) is outside the ${session.cols}x${session.rows} screen.`,
      "Rows and columns are 0-based.",
    );
  }
  return { row, col };
}
