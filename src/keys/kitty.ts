/**
 * Kitty keyboard protocol encoding (https://sw.kovidgoyal.net/kitty/keyboard-protocol/), used
 * when the application pushed flags with `CSI > flags u` / `CSI = flags u`.
 *
 * The algorithm follows kitty's own encoder (kitty/key_encoding.c: encode_key,
 * encode_function_key, encode_printable_ascii_key_legacy), for press events:
 *
 *   CSI unicode-key-code[:shifted-key] ; modifiers ; text-as-codepoints u
 *   CSI number ; modifiers ~          CSI 1 ; modifiers {A B C D F H P Q S}
 *
 * - modifiers = 1 + shift 1 + alt 2 + ctrl 4 + super 8; KeySpec.meta is kitty's super.
 *   The field is omitted when there are no modifiers, and "1;" is dropped from CSI 1;M X.
 * - The key code is the unshifted key on a US layout: "A" and shift+a are 97 with shift,
 *   "!" is 49 ("1") with shift, never 65 or 33.
 * - Functional keys: Escape 27u, Enter 13u, Tab 9u, Backspace 127u, Insert 2~, Delete 3~,
 *   PageUp 5~, PageDown 6~, arrows 1A..1D, Home 1H, End 1F, F1 1P, F2 1Q, F3 13~ (kitty sends
 *   13~ rather than 1R, which collides with the cursor position report; kovidgoyal/kitty discussion 5813),
 *   F4 1S, F5-F12 15~ 17~ 18~ 19~ 20~ 21~ 23~ 24~, F13-F24 57376u-57387u (Private Use Area).
 *
 * Flags:
 * - 1 disambiguate: Escape, and ctrl/alt/super chords on text keys, become CSI u; unmodified
 *   Enter, Tab and Backspace stay \r \t \x7f; text without ctrl/alt/super stays plain text.
 *   Arrows/Home/End ignore DECCKM (always CSI, never SS3), as in kitty.
 * - 8 report all keys as escape codes: text keys and Enter/Tab/Backspace are CSI u too.
 * - 4 report alternate keys: the shifted key is added after a colon when shift is held
 *   (CSI 97:65;2u). The base-layout key is never sent: we assume a US layout, where it equals the key.
 * - 16 report associated text: with flag 8, the text the key types is appended (CSI 97;2;65u).
 * - 2 report event types: we only generate press events, and press is the default event type,
 *   so no ":1" sub-field is ever written (kitty writes it only for repeat and release).
 * Flags without 1 and 8 keep kitty's legacy fallbacks (e.g. ctrl+a -> 0x01).
 */
import { isUpperLetter, shiftedChar, US_UNSHIFTED } from "./names.ts";
import { CSI, CURSOR_FINALS, ctrlChar, ESC, modifierBits, SS3, SS3_FUNCTION_FINALS, TILDE_CODES } from "./tables.ts";
import type { KeyboardModes, KeySpec } from "./types.ts";

/** Progressive enhancement flag bits (kitty spec, "Progressive enhancement"). */
export const KITTY_FLAGS = {
  disambiguate: 1,
  reportEventTypes: 2,
  reportAlternateKeys: 4,
  reportAllKeys: 8,
  reportAssociatedText: 16,
} as const;

const SHIFT = 1;
const ALT = 2;
const CTRL = 4;

/** Kitty "Functional key definitions": [number, trailer]. */
function functionalCode(name: string): [number, string] | undefined {
  switch (name) {
    case "Escape":
      return [27, "u"];
    case "Enter":
      return [13, "u"];
    case "Tab":
      return [9, "u"];
    case "Backspace":
      return [127, "u"];
    case "F3":
      return [13, "~"];
  }
  const final = CURSOR_FINALS[name] ?? SS3_FUNCTION_FINALS[name];
  if (final !== undefined) return [1, final];
  const fn = /^F(\d+)$/.exec(name);
  const n = fn?.[1] === undefined ? 0 : Number(fn[1]);
  if (n >= 13 && n <= 24) return [57376 + n - 13, "u"];
  const tilde = TILDE_CODES[name];
  return tilde === undefined ? undefined : [tilde, "~"];
}

/** kitty serialize(): CSI key[:shifted] [; mods] [; text codepoints] trailer. */
function serialize(key: number, mods: number, trailer: string, shifted?: string, text?: string): string {
  const textField = text === undefined ? "" : Array.from(text, (c) => c.codePointAt(0)).join(":");
  let out = CSI;
  if (key !== 1 || shifted !== undefined || mods !== 0 || textField !== "") out += String(key);
  if (shifted !== undefined) out += `:${shifted.codePointAt(0)}`;
  if (mods !== 0 || textField !== "") out += mods !== 0 ? `;${mods + 1}` : ";";
  if (textField !== "") out += `;${textField}`;
  return out + trailer;
}

interface Flags {
  disambiguate: boolean;
  events: boolean;
  alternates: boolean;
  allKeys: boolean;
  text: boolean;
}

function legacyC0WithMods(name: string, mods: number): string | undefined {
  const prefix = mods & ALT ? ESC : "";
  switch (name) {
    case "Enter":
      return `${prefix}\r`;
    case "Escape":
      return prefix + ESC;
    case "Backspace":
      return prefix + (mods & CTRL ? "\x08" : "\x7f");
    case "Tab":
      return mods & SHIFT ? `${prefix}${CSI}Z` : `${prefix}\t`;
    default:
      return undefined;
  }
}

function encodeFunctional(name: string, code: [number, string], mods: number, f: Flags, appCursor: boolean): string {
  const legacyMode = !f.disambiguate && !f.events && !f.allKeys;
  const cursorFinal = CURSOR_FINALS[name];
  if (appCursor && legacyMode && mods === 0 && cursorFinal !== undefined) return SS3 + cursorFinal;
  if (mods === 0) {
    if (!f.disambiguate && !f.allKeys && name === "Escape") return ESC;
    const ss3 = SS3_FUNCTION_FINALS[name];
    if (legacyMode && ss3 !== undefined) return SS3 + ss3;
    if (!f.allKeys) {
      if (name === "Enter") return "\r";
      if (name === "Backspace") return "\x7f";
      if (name === "Tab") return "\t";
    }
  } else if (legacyMode) {
    const legacy = legacyC0WithMods(name, mods);
    if (legacy !== undefined) return legacy;
  }
  return serialize(code[0], mods, code[1]);
}

const LEGACY_ASCII = /^[a-z0-9`\-=[\]\\;',./ ]$/;

/** kitty's ctrled_key(): like X11's mapping, but leaves A-Z ` { | } untouched. */
function kittyCtrl(ch: string): string {
  return /^[A-Z`{|}]$/.test(ch) ? ch : ctrlChar(ch);
}

/** kitty encode_printable_ascii_key_legacy(), for flags without disambiguate/report-all. */
function legacyAscii(key: string, shifted: string, mods: number): string | undefined {
  if (!LEGACY_ASCII.test(key)) return undefined;
  let k = key;
  let m = mods;
  if (m & SHIFT && shifted !== key && (!(m & CTRL) || !/^[a-z]$/.test(key))) {
    k = shifted;
    m &= ~SHIFT;
  }
  if (mods === SHIFT) return k;
  if (m === ALT) return ESC + k;
  if (m === CTRL) return kittyCtrl(k);
  if (m === (CTRL | ALT)) return ESC + kittyCtrl(k);
  if (k === " " && m === (CTRL | SHIFT)) return kittyCtrl(k);
  if (k === " " && m === (ALT | SHIFT)) return `${ESC} `;
  return undefined;
}

function encodeText(spec: KeySpec, mods: number, f: Flags): string {
  const typed = spec.key === "Space" ? " " : spec.key;
  let base = typed;
  let m = mods;
  const unshifted = US_UNSHIFTED[typed];
  if (unshifted !== undefined) {
    base = unshifted;
    m |= SHIFT;
  } else if (isUpperLetter(typed)) {
    base = typed.toLowerCase();
    m |= SHIFT;
  }
  const shifted = shiftedChar(base);
  // Keys with ctrl/alt/super type no text; otherwise the text is the (shifted) character.
  const text = (m & ~SHIFT) === 0 ? (m & SHIFT ? shifted : base) : undefined;
  if (!f.allKeys && text !== undefined) return text;

  const addAlternate = f.alternates && (m & SHIFT) !== 0 && shifted !== base;
  const addText = f.text && text !== undefined;
  const code = base.codePointAt(0) ?? 0;
  if (!addAlternate && !addText && m !== 0 && !f.disambiguate && !f.allKeys) {
    const legacy = legacyAscii(base, shifted, m);
    if (legacy !== undefined) return legacy;
  }
  return serialize(code, m, "u", addAlternate ? shifted : undefined, addText ? text : undefined);
}

/** Encode a key press under the kitty keyboard protocol (modes.kittyFlags != 0). */
export function encodeKitty(spec: KeySpec, modes: KeyboardModes): string {
  const flags = modes.kittyFlags;
  const f: Flags = {
    disambiguate: (flags & KITTY_FLAGS.disambiguate) !== 0,
    events: (flags & KITTY_FLAGS.reportEventTypes) !== 0,
    alternates: (flags & KITTY_FLAGS.reportAlternateKeys) !== 0,
    allKeys: (flags & KITTY_FLAGS.reportAllKeys) !== 0,
    text: (flags & KITTY_FLAGS.reportAssociatedText) !== 0,
  };
  const mods = modifierBits(spec);
  const code = functionalCode(spec.key);
  if (code !== undefined) return encodeFunctional(spec.key, code, mods, f, modes.applicationCursorKeys);
  return encodeText(spec, mods, f);
}
