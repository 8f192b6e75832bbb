/** paste and mouse: input whose bytes depend on modes the app switched on. */
import * as v from "valibot";
import { TuiError } from "../errors.ts";
import { compileMatcher } from "../session/matcher.ts";
import type { Session } from "../session/session.ts";
import { encodeMouse, reported, type MouseButton, type MouseEvent, type MouseEventKind } from "../mouse/encode.ts";
import { annotations, defineSessionTool } from "./define.ts";
import { checkPayload } from "./input-tools.ts";
import { runObserved } from "./observed.ts";
import { observeEntries, optionalBoolean, sessionId } from "./schemas.ts";
import { B, S, observedOutput, shape } from "./output-shape.ts";

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

export const paste = defineSessionTool({
  name: "paste",
  scriptable: true,
  output: shape({ ...observedOutput, bracketed: B }),
  description: "Paste text (at most 1 MiB): in ESC[200~ ... ESC[201~ if the app enabled bracketed paste (mode 2004), else plain; the result says which.",
  input: v.strictObject({ sessionId, text: v.pipe(v.string(), v.minLength(1)), ...observeEntries }),
  annotations: annotations("Paste", "write"),
  check: (args) => checkPayload("paste", "text", Buffer.byteLength(args.text)),
  act(session, args, ctx) {
    return runObserved(session, args, ctx, () => {
      const bracketed = session.modes().bracketedPaste;
      // Like xterm, drop an embedded end marker so pasted text cannot end the paste early.
      const body = bracketed ? args.text.replaceAll(PASTE_END, "") : args.text;
      const bytes = new TextEncoder().encode(bracketed ? PASTE_START + body + PASTE_END : body);
      session.write(bytes);
      return { bytesSent: bytes.length, bracketed, sanitized: body.length !== args.text.length };
    }, (r) => `Pasted ${r.bytesSent} bytes${r.bracketed ? " (bracketed)" : " (plain: the app has not enabled bracketed paste)"}`, ["bytesSent", "bracketed"]);
  },
});

const target = {
  row: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  col: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  text: v.optional(v.pipe(v.string(), v.minLength(1))),
  regex: optionalBoolean(false),
};

const actions = ["click", "double_click", "press", "release", "drag", "move", "wheel_up", "wheel_down"] as const;

export const mouse = defineSessionTool({
  name: "mouse",
  scriptable: true,
  output: shape({ ...observedOutput, action: S }),
  description: "Mouse event at a cell (row, col; 0-based) or the middle of text's first on-screen match (RegExp if regex); drags end at toRow/toCol or toText. Uses the app's mouse tracking mode; error if none.",
  input: v.strictObject({
    sessionId,
    action: v.picklist(actions),
    button: v.optional(v.picklist(["left", "middle", "right"]), "left"),
    ...target,
    toRow: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    toCol: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    toText: v.optional(v.pipe(v.string(), v.minLength(1))),
    shift: v.optional(v.boolean(), false),
    alt: v.optional(v.boolean(), false),
    ctrl: v.optional(v.boolean(), false),
    ...observeEntries,
  }),
  annotations: annotations("Mouse", "write"),
  async act(session, args, ctx) {
    const modes = session.modes();
    if (modes.mouseTracking === "none") {
      throw new TuiError("MOUSE_NOT_ENABLED", "The app has not enabled mouse tracking, so mouse reports would reach it as stray key presses.", "Check that the app supports the mouse (list_sessions shows modes.mouseTracking), or drive it with send_keys.");
    }
    const from = await locate(session, args.row, args.col, args.text, args.regex, "");
    const to = args.action === "drag" ? await locate(session, args.toRow, args.toCol, args.toText, args.regex, "to") : from;
    const base = { button: args.button as MouseButton, shift: args.shift, alt: args.alt, ctrl: args.ctrl };
    const at = (kind: MouseEventKind, cell: { row: number; col: number }, buttonHeld = false): MouseEvent => ({ ...base, kind, ...cell, buttonHeld });
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
      throw new TuiError("MOUSE_NOT_ENABLED", `The app's mouse mode (${modes.mouseTracking}) does not report ${args.action} events.`, "Use click/press, or an app mode that tracks motion (1002/1003).");
    }
    const bytes = sent.map((event) => encodeMouse(modes.mouseTracking, modes.mouseEncoding, event));
    return runObserved(session, args, ctx, () => {
      for (const chunk of bytes) session.write(chunk);
      return { action: args.action, at: from, ...(args.action === "drag" ? { to } : {}), events: sent.map((e) => e.kind), bytesSent: bytes.reduce((n, b) => n + b.length, 0), tracking: modes.mouseTracking, encoding: modes.mouseEncoding };
    }, (r) => `Mouse ${args.action} at row ${from.row}, col ${from.col} (${r.tracking}/${r.encoding})`);
  },
});

async function locate(session: Session, row: number | undefined, col: number | undefined, text: string | undefined, regex: boolean, prefix: string): Promise<{ row: number; col: number }> {
  const name = (k: string) => (prefix ? `${prefix}${k[0]!.toUpperCase()}${k.slice(1)}` : k);
  if (text !== undefined) {
    using matcher = compileMatcher({ pattern: text, regex });
    const lines = session.emulator.snapshot().lines;
    for (const [r, line] of lines.entries()) {
      const found = await matcher.find(line);
      if (found) return { row: r, col: found.index + Math.floor(Math.max(0, found.length - 1) / 2) };
    }
    throw new TuiError("TEXT_NOT_FOUND", `"${text}" is not on the screen.`, "Check the screen with get_text, or give row/col.");
  }
  if (row === undefined || col === undefined) throw new TuiError("INVALID_ARGUMENT", `Give ${name("row")} and ${name("col")}, or ${name("text")}.`, "Example: { \"action\": \"click\", \"text\": \"OK\" }.");
  if (row >= session.rows || col >= session.cols) throw new TuiError("INVALID_ARGUMENT", `Cell (${row}, ${col}) is outside the ${session.cols}x${session.rows} screen.`, "Rows and columns are 0-based.");
  return { row, col };
}
