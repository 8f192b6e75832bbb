/**
 * Text that crosses into another program's syntax: the window title (agent-chosen, so untrusted),
 * `{fifo}`/`{title}` placeholders, POSIX shell single quotes and AppleScript string literals.
 */

export interface ViewerCommand {
  command: string;
  args: string[];
}

export const MAX_TITLE_LENGTH = 80;

/**
 * C0/C1 controls (an ESC or BEL in a title could end an xterm title sequence or a line of a
 * script), DEL, and bidi overrides (which could make a title display as something else).
 */
const UNSAFE_TITLE_CHARS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Control characters removed, whitespace runs collapsed, at most MAX_TITLE_LENGTH code points. */
export function sanitizeTitle(raw: string): string {
  const cleaned = raw.replace(UNSAFE_TITLE_CHARS, " ").replace(/\s+/g, " ").trim();
  const points = [...cleaned];
  return points.length <= MAX_TITLE_LENGTH ? cleaned : `${points.slice(0, MAX_TITLE_LENGTH - 1).join("")}…`;
}

/** `tui-tester: <name or id>`; the fixed prefix also keeps the title from ever looking like an option. */
export function viewerTitle(session: { id: string; name?: string | undefined }): string {
  const label = session.name !== undefined && session.name.trim() !== "" ? session.name : session.id;
  return sanitizeTitle(`tui-tester: ${label}`);
}

/**
 * Replace `{fifo}` and `{title}` inside each arg in a single pass, so a title that itself contains
 * "{fifo}" stays literal. The result is an argv for direct exec: no shell ever sees it.
 */
export function substitutePlaceholders(args: readonly string[], values: { fifo: string; title: string }): string[] {
  return args.map((arg) => arg.replace(/\{(fifo|title)\}/g, (_, key: "fifo" | "title") => values[key]));
}

/** One POSIX shell word: inside single quotes nothing is special except the quote itself. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** An AppleScript string literal: only backslash and double quote are special inside one. */
export function appleScriptString(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}
