/**
 * Key and modifier names accepted by send_keys, plus the US keyboard layout data the
 * encoders need (which character Shift produces on which key).
 */

/** Modifier fields of a KeySpec. */
export type Modifier = "ctrl" | "shift" | "alt" | "meta";

/**
 * Canonical named keys, in the order they are listed in suggestions and docs.
 * Everything else a KeySpec can hold is a single character ("a", "!", "é").
 */
export const keyNames: readonly string[] = [
  "Enter",
  "Tab",
  "Escape",
  "Backspace",
  "Space",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Home",
  "End",
  "Insert",
  "Delete",
  "PageUp",
  "PageDown",
  ...Array.from({ length: 24 }, (_, i) => `F${i + 1}`),
];

const NAME_ALIASES: Record<string, readonly string[]> = {
  Enter: ["return", "ret", "cr"],
  Escape: ["esc"],
  Backspace: ["bs", "bksp"],
  Space: ["spc"],
  ArrowUp: ["up", "arrow_up"],
  ArrowDown: ["down", "arrow_down"],
  ArrowLeft: ["left", "arrow_left"],
  ArrowRight: ["right", "arrow_right"],
  Insert: ["ins"],
  Delete: ["del"],
  PageUp: ["pgup", "page_up"],
  PageDown: ["pgdn", "pgdown", "page_down"],
};

/** Names that stand for a single printable character (handy where "+" or "-" would be a separator). */
const CHAR_ALIASES: Record<string, string> = { plus: "+", minus: "-" };

function buildKeyAliases(): ReadonlyMap<string, string> {
  const map = new Map<string, string>();
  // Short aliases first: they are what suggestions show ("up" reads better than "arrowup").
  for (const [canonical, aliases] of Object.entries(NAME_ALIASES)) {
    for (const alias of aliases) map.set(alias, canonical);
  }
  for (const name of keyNames) map.set(name.toLowerCase(), name);
  for (const [alias, ch] of Object.entries(CHAR_ALIASES)) map.set(alias, ch);
  return map;
}

/** Lower-case alias -> canonical key (a name from keyNames, or a single character for plus/minus). */
export const keyAliases: ReadonlyMap<string, string> = buildKeyAliases();

/** Lower-case modifier alias -> KeySpec field. */
export const modifierAliases: ReadonlyMap<string, Modifier> = new Map<string, Modifier>([
  ["ctrl", "ctrl"],
  ["control", "ctrl"],
  ["ctl", "ctrl"],
  ["shift", "shift"],
  ["alt", "alt"],
  ["option", "alt"],
  ["opt", "alt"],
  ["meta", "meta"],
  ["cmd", "meta"],
  ["command", "meta"],
  ["super", "meta"],
  ["win", "meta"],
]);

/** One line listing what parseKey accepts, for error hints. */
export const VALID_NAMES_TEXT =
  "Enter, Tab, Escape, Backspace, Space, Up, Down, Left, Right, Home, End, Insert, Delete, " +
  "PageUp, PageDown, F1-F24, plus, minus, or any single character; " +
  "modifiers ctrl, shift, alt (option), meta (cmd, super, win)";

/**
 * US layout: unshifted key -> the character Shift produces (letters excluded).
 * Same table as kitty's shifted_ascii_key() in kitty/key_encoding.c.
 */
export const US_SHIFTED: Readonly<Record<string, string>> = {
  "`": "~",
  "1": "!",
  "2": "@",
  "3": "#",
  "4": "$",
  "5": "%",
  "6": "^",
  "7": "&",
  "8": "*",
  "9": "(",
  "0": ")",
  "-": "_",
  "=": "+",
  "[": "{",
  "]": "}",
  "\\": "|",
  ";": ":",
  "'": '"',
  ",": "<",
  ".": ">",
  "/": "?",
};

/** US layout: shifted character -> the key it sits on ("!" -> "1"). */
export const US_UNSHIFTED: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(US_SHIFTED).map(([base, shifted]) => [shifted, base]),
);

/** True for a single code point whose lower-case form differs ("A", "É"). */
export function isUpperLetter(ch: string): boolean {
  const lower = ch.toLowerCase();
  return lower !== ch && Array.from(lower).length === 1 && lower.toUpperCase() === ch;
}

/** The character a key types with Shift held, on a US layout ("1" -> "!", "a" -> "A", "!" -> "!"). */
export function shiftedChar(ch: string): string {
  const symbol = US_SHIFTED[ch];
  if (symbol !== undefined) return symbol;
  const upper = ch.toUpperCase();
  return Array.from(upper).length === 1 && isUpperLetter(upper) ? upper : ch;
}

/** Optimal string alignment distance (Levenshtein plus adjacent transpositions: "ctlr" -> "ctrl" is 1). */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = d[i];
      if (row) row[j] = best;
    }
  }
  return at(rows - 1, cols - 1);
}

/** The candidate nearest to `word` (first one wins ties), or undefined when nothing is reasonably close. */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  const limit = Math.max(2, Math.ceil(w.length / 2));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const dist = editDistance(w, c);
    if (dist < bestDistance) {
      best = c;
      bestDistance = dist;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
