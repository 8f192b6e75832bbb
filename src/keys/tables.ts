/**
 * Escape-sequence tables shared by the legacy (xterm) and kitty encoders.
 * xterm ctlseqs "PC-Style Function Keys"; kitty keyboard protocol "Functional key definitions".
 */
import type { KeySpec } from "./types.ts";

export const ESC = "\x1b";
export const CSI = "\x1b[";
export const SS3 = "\x1bO";

/** Final bytes of the cursor-style keys (CSI 1;M <final>). */
export const CURSOR_FINALS: Readonly<Record<string, string>> = {
  ArrowUp: "A",
  ArrowDown: "B",
  ArrowRight: "C",
  ArrowLeft: "D",
  Home: "H",
  End: "F",
};

/** F1-F4: SS3 <final> unmodified, CSI 1;M <final> modified. */
export const SS3_FUNCTION_FINALS: Readonly<Record<string, string>> = { F1: "P", F2: "Q", F3: "R", F4: "S" };

/** Keys sent as CSI <n> ~ / CSI <n>;M ~ (xterm ctlseqs; F13-F24 per xterm input.c decfuncvalue). */
export const TILDE_CODES: Readonly<Record<string, number>> = {
  Insert: 2,
  Delete: 3,
  PageUp: 5,
  PageDown: 6,
  F5: 15,
  F6: 17,
  F7: 18,
  F8: 19,
  F9: 20,
  F10: 21,
  F11: 23,
  F12: 24,
  F13: 25,
  F14: 26,
  F15: 28,
  F16: 29,
  F17: 31,
  F18: 32,
  F19: 33,
  F20: 34,
  F21: 42,
  F22: 43,
  F23: 44,
  F24: 45,
};

/** Modifier bits shared by xterm and kitty: shift 1, alt 2, ctrl 4, meta/super 8. */
export function modifierBits(spec: KeySpec): number {
  return (spec.shift ? 1 : 0) | (spec.alt ? 2 : 0) | (spec.ctrl ? 4 : 0) | (spec.meta ? 8 : 0);
}

/** X11 XLookupString control mapping plus xterm's Ctrl+? -> DEL. Unmappable characters are unchanged. */
export function ctrlChar(ch: string): string {
  if (ch.length !== 1) return ch;
  const c = ch.charCodeAt(0);
  if ((c >= 0x40 && c < 0x7f) || c === 0x20) return String.fromCharCode(c & 0x1f);
  if (ch === "2") return "\x00";
  if (c >= 0x33 && c <= 0x37) return String.fromCharCode(c - 0x33 + 0x1b); // '3'..'7' -> ESC, FS, GS, RS, US
  if (ch === "8" || ch === "?") return "\x7f";
  if (ch === "/") return "\x1f";
  return ch;
}
