/**
 * Key chord parsing: "ctrl+shift+up", "alt-x", "F5", "A", "ctrl++", { key: "F5", ctrl: true }.
 *
 * Canonical form of the KeySpec returned:
 * - Named keys use the names in keyNames ("Enter", "ArrowUp", "PageDown", "F13"), whatever alias was typed.
 *   A space, typed as " " or "space", is the named key "Space".
 * - Letters are always lower case; an upper-case letter is that letter plus shift:
 *   "A" -> { key: "a", shift: true }, exactly like "shift+a". Both encode to 0x41.
 *   This also holds under modifiers: "ctrl+A" is ctrl+shift+a (same bytes as ctrl+a in legacy
 *   encoding, CSI 97;6u under the kitty protocol).
 * - Every other character is kept as typed, including shifted symbols: "!" stays { key: "!" }
 *   and "shift+1" stays { key: "1", shift: true }; both encode to "!".
 */
import { TuiError } from "../errors.ts";
import { clip } from "../util/clip.ts";
import type { KeySpec, KeySpecInput } from "./types.ts";
import { isUpperLetter, keyAliases, type Modifier, modifierAliases, nearest, VALID_NAMES_TEXT } from "./names.ts";

const SEPARATORS = new Set(["+", "-"]);

/** The longest chord accepted ("ctrl+shift+alt+meta+PageDown" is 28); checked before any "did you mean" search. */
export const MAX_KEY_NAME_CHARS = 64;

interface Mods {
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  meta: boolean;
}

const NO_MODS: Readonly<Mods> = { ctrl: false, shift: false, alt: false, meta: false };

function invalid(message: string, hint?: string): TuiError {
  return new TuiError("INVALID_KEY", message, hint);
}

function describe(input: unknown): string {
  return clip(typeof input === "string" ? input : (JSON.stringify(input) ?? String(input)), 80);
}

function unknownName(raw: string, token: string, kind: "key" | "modifier"): TuiError {
  const candidates = kind === "key" ? keyAliases.keys() : modifierAliases.keys();
  const guess = nearest(token, candidates);
  const message =
    kind === "key"
      ? `Unknown key "${raw}": "${token}" is not a key name`
      : `Unknown key "${raw}": "${token}" is not a modifier`;
  // raw is at most MAX_KEY_NAME_CHARS here, so the message stays short
  const valid = `Valid names: ${VALID_NAMES_TEXT}`;
  return invalid(message, guess === undefined ? valid : `Did you mean "${guess}"? ${valid}`);
}

/** A single code point typed as a key. */
function charKey(raw: string, ch: string, mods: Mods): KeySpec {
  const cp = ch.codePointAt(0) ?? 0;
  if (cp < 0x20 || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) {
    throw invalid(
      `Unknown key "${raw}": control character U+${cp.toString(16).toUpperCase().padStart(4, "0")} is not a key`,
      `Name the key instead ("Enter", "Tab", "Escape", "Backspace", "ctrl+c"), or send the byte with send_raw.`,
    );
  }
  if (ch === " ") return { key: "Space", ...mods };
  if (isUpperLetter(ch)) return { key: ch.toLowerCase(), ...mods, shift: true };
  return { key: ch, ...mods };
}

/** Resolve the key part of a chord: a single character or a (case-insensitive) name. */
function resolveKey(raw: string, token: string, mods: Mods): KeySpec {
  if (Array.from(token).length === 1) return charKey(raw, token, mods);
  const canonical = keyAliases.get(token.toLowerCase());
  if (canonical !== undefined) {
    return Array.from(canonical).length === 1 ? charKey(raw, canonical, mods) : { key: canonical, ...mods };
  }
  if (modifierAliases.has(token.toLowerCase())) {
    throw invalid(
      `Unknown key "${raw}": "${token}" is a modifier, not a key`,
      `Put a key after the modifiers, e.g. "${token}+tab" or "${token}+a".`,
    );
  }
  throw unknownName(raw, token, "key");
}

/** Split "ctrl+shift+a" into modifier tokens and the key token; "ctrl++" and "ctrl+-" end in a literal key. */
function splitChord(raw: string): { modTokens: string[]; keyToken: string } {
  const last = raw.charAt(raw.length - 1);
  const prev = raw.charAt(raw.length - 2);
  let keyToken: string;
  let modPart: string;
  if (SEPARATORS.has(last) && SEPARATORS.has(prev)) {
    keyToken = last;
    modPart = raw.slice(0, -2);
  } else {
    const cut = Math.max(raw.lastIndexOf("+"), raw.lastIndexOf("-"));
    if (cut === -1) return { modTokens: [], keyToken: raw.trim() || raw };
    keyToken = raw.slice(cut + 1);
    modPart = raw.slice(0, cut);
  }
  // "ctrl+ " means ctrl+space; otherwise surrounding blanks ("ctrl + a") are ignored.
  keyToken = keyToken.trim() === "" ? keyToken.slice(0, 1) : keyToken.trim();
  if (keyToken === "") {
    throw invalid(
      `Unknown key "${raw}": nothing after the last "${raw.charAt(raw.length - 1)}"`,
      `Write the key after the modifiers, e.g. "ctrl+c"; for the + or - key itself ` +
        `use "ctrl++" / "ctrl+-" (or "ctrl+plus" / "ctrl+minus").`,
    );
  }
  const modTokens = modPart.split(/[+-]/).map((t) => t.trim());
  if (modTokens.some((t) => t === "")) {
    throw invalid(
      `Unknown key "${raw}": empty modifier (stray "+" or "-")`,
      `Separate modifiers with a single "+" or "-", e.g. "ctrl+shift+up".`,
    );
  }
  return { modTokens, keyToken };
}

function parseChord(raw: string, base: Mods): KeySpec {
  if (raw.length === 0) {
    throw invalid(
      `Unknown key "": the key is empty`,
      `Give a key such as "Enter", "a" or "ctrl+c". Valid names: ${VALID_NAMES_TEXT}`,
    );
  }
  if (raw.length > MAX_KEY_NAME_CHARS) {
    throw invalid(
      `Key name too long: ${raw.length} characters, at most ${MAX_KEY_NAME_CHARS} ("${clip(raw, 40)}")`,
      `A key is a short chord such as "ctrl+shift+F5"; send text with send_text or type_text, bytes with send_raw.`,
    );
  }
  // A lone character is always that key, separators included: "+", "-", " ".
  if (Array.from(raw).length === 1) return charKey(raw, raw, base);
  // Whole-string names first, so a name never gets split.
  const whole = keyAliases.get(raw.trim().toLowerCase());
  if (whole !== undefined) return resolveKey(raw, raw.trim(), base);

  const { modTokens, keyToken } = splitChord(raw);
  const mods: Mods = { ...base };
  for (const token of modTokens) {
    const mod: Modifier | undefined = modifierAliases.get(token.toLowerCase());
    if (mod === undefined) throw unknownName(raw, token, "modifier");
    mods[mod] = true;
  }
  return resolveKey(raw, keyToken, mods);
}

function isSpecInput(input: unknown): input is KeySpecInput {
  return typeof input === "object" && input !== null && typeof (input as { key?: unknown }).key === "string";
}

/**
 * Parse one key chord. Names are case-insensitive, single characters are case-sensitive
 * ("A" is shift+a). Separators are "+" or "-". Throws TuiError INVALID_KEY with a suggestion.
 * Object input may itself hold a chord in `key`; its boolean fields add modifiers.
 */
export function parseKey(input: string | KeySpecInput): KeySpec {
  if (typeof input === "string") return parseChord(input, NO_MODS);
  if (!isSpecInput(input)) {
    throw invalid(
      `Unknown key ${describe(input)}: expected a string or { key, ctrl?, shift?, alt?, meta? }`,
      `Example: "ctrl+c" or { "key": "F5", "ctrl": true }.`,
    );
  }
  const base: Mods = {
    ctrl: input.ctrl === true,
    shift: input.shift === true,
    alt: input.alt === true,
    meta: input.meta === true,
  };
  return parseChord(input.key, base);
}

/**
 * Parse one chord or a list of them. Every entry is parsed before anything is returned, so a
 * typo anywhere rejects the whole list; the error's details carry the failing `index`.
 */
export function parseKeys(input: string | KeySpecInput | (string | KeySpecInput)[]): KeySpec[] {
  if (!Array.isArray(input)) return [parseKey(input)];
  if (input.length === 0)
    throw invalid("No keys given: the key list is empty", `Pass at least one key, e.g. ["down", "Enter"].`);
  return input.map((entry, index) => {
    try {
      return parseKey(entry);
    } catch (e) {
      if (e instanceof TuiError) throw new TuiError(e.code, e.message, e.hint, { ...e.details, index });
      throw e;
    }
  });
}
