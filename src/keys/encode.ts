/**
 * KeySpec -> the characters an xterm sends for it (legacy encoding), or the kitty keyboard
 * protocol encoding when the application enabled it (modes.kittyFlags != 0).
 *
 * Sources:
 * - xterm ctlseqs, "PC-Style Function Keys" (https://invisible-island.net/xterm/ctlseqs/ctlseqs.html):
 *   cursor keys CSI A..D / SS3 A..D under DECCKM, Home CSI H, End CSI F, Insert/Delete/PageUp/PageDown
 *   CSI 2~ 3~ 5~ 6~, F1-F4 SS3 P..S, F5-F12 CSI 15~ 17~ 18~ 19~ 20~ 21~ 23~ 24~, and the modifier
 *   parameter 1 + (shift 1 | alt 2 | ctrl 4 | meta 8) giving CSI 1;M A and CSI n;M ~.
 * - F13-F24 use xterm's DEC-style numbers from input.c decfuncvalue(): F13 25, F14 26, F15 28,
 *   F16 29, F17 31, F18 32, F19 33, F20 34 (the VT220 codes in ctlseqs), then "after F20 the codes
 *   are made up ... simply numbered sequentially": F21 42, F22 43, F23 44, F24 45.
 *   (An xterm with a PC keyboard sends Shift+F1 = CSI 1;2P for the key it calls F13; we send the
 *   distinct ~ form so F13..F24 are keys of their own, as the README's "CSI n;M~ for F5-F24" says.)
 * - Ctrl on characters follows X11 XLookupString (_XTranslateKey), which xterm uses: '@'..'~' and
 *   space map to c & 0x1f; '2' -> NUL, '3'..'7' -> 0x1b..0x1f, '8' -> DEL, '/' -> 0x1f; xterm
 *   itself turns Ctrl+'?' into DEL (input.c). Any other character is sent unchanged.
 * - Alt and Meta on characters and on Enter/Tab/Backspace/Escape prefix ESC (xterm metaSendsEscape /
 *   altSendsEscape); on CSI keys they are bits of the modifier parameter instead.
 * - Enter/Tab/Backspace/Escape/Space with modifiers follow the "C0 controls" table of the kitty
 *   spec's legacy section, which matches xterm: Backspace 0x7f, Ctrl+Backspace 0x08, Shift+Tab CSI Z.
 *
 * Output is a JS string: ASCII code units, plus any literal non-ASCII character as itself;
 * the PTY layer UTF-8-encodes it.
 */
import type { KeyboardModes, KeySpec } from "./types.ts";
import { encodeKitty } from "./kitty.ts";
import { shiftedChar } from "./names.ts";
import { CSI, ctrlChar, CURSOR_FINALS, ESC, modifierBits, SS3, SS3_FUNCTION_FINALS, TILDE_CODES } from "./tables.ts";

function encodeCharLegacy(spec: KeySpec): string {
  let ch = spec.key === "Space" ? " " : spec.key;
  if (spec.shift) ch = shiftedChar(ch);
  if (spec.ctrl) ch = ctrlChar(ch);
  return (spec.alt || spec.meta ? ESC : "") + ch;
}

/** Enter, Tab, Backspace, Escape: C0 bytes, ESC-prefixed for Alt/Meta. */
function encodeC0Key(spec: KeySpec): string | undefined {
  const prefix = spec.alt || spec.meta ? ESC : "";
  switch (spec.key) {
    case "Enter":
      return prefix + "\r";
    case "Escape":
      return prefix + ESC;
    case "Backspace":
      return prefix + (spec.ctrl ? "\x08" : "\x7f");
    case "Tab":
      return prefix + (spec.shift ? `${CSI}Z` : "\t");
    default:
      return undefined;
  }
}

function encodeLegacy(spec: KeySpec, modes: KeyboardModes): string {
  const c0 = encodeC0Key(spec);
  if (c0 !== undefined) return c0;
  const m = modifierBits(spec);
  const cursor = CURSOR_FINALS[spec.key];
  if (cursor !== undefined) {
    if (m !== 0) return `${CSI}1;${m + 1}${cursor}`;
    return (modes.applicationCursorKeys ? SS3 : CSI) + cursor;
  }
  const ss3 = SS3_FUNCTION_FINALS[spec.key];
  if (ss3 !== undefined) return m === 0 ? SS3 + ss3 : `${CSI}1;${m + 1}${ss3}`;
  const tilde = TILDE_CODES[spec.key];
  if (tilde !== undefined) return m === 0 ? `${CSI}${tilde}~` : `${CSI}${tilde};${m + 1}~`;
  return encodeCharLegacy(spec);
}

/**
 * Encode a parsed key for the terminal's current keyboard modes.
 * kittyFlags == 0: xterm legacy encoding (bit-exact with the README's key encoding reference).
 * kittyFlags != 0: kitty keyboard protocol, press events (see kitty.ts).
 */
export function encodeKey(spec: KeySpec, modes: KeyboardModes): string {
  if (modes.kittyFlags !== 0) return encodeKitty(spec, modes);
  return encodeLegacy(spec, modes);
}
