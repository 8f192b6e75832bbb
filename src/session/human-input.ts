/**
 * What a human typed in the web viewer, as the agent's step types: printable text becomes send_text,
 * a named key (as xterm encodes it under the app's live modes) send_keys, a bracketed paste paste,
 * and anything else (mouse reports, unknown sequences) send_raw with its hex.
 */
import { encodeKey, parseKey, type KeyboardModes } from "../keys/index.ts";

export interface HumanStep {
  type: "send_text" | "send_keys" | "paste" | "send_raw";
  args: Record<string, unknown>;
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Keys a person presses in a terminal, named as send_keys takes them. */
const KEY_NAMES = [
  "enter",
  "tab",
  "shift+tab",
  "backspace",
  "escape",
  "up",
  "down",
  "left",
  "right",
  "home",
  "end",
  "insert",
  "delete",
  "pageup",
  "pagedown",
  ...Array.from({ length: 12 }, (_, i) => `F${i + 1}`),
  ...["up", "down", "left", "right"].flatMap((k) => [`ctrl+${k}`, `shift+${k}`, `alt+${k}`]),
  ..."abcdefghijklmnopqrstuvwxyz".split("").flatMap((c) => [`ctrl+${c}`, `alt+${c}`]),
];

function keyTable(modes: KeyboardModes): [string, string][] {
  const table = new Map<string, string>();
  for (const name of KEY_NAMES) {
    const bytes = encodeKey(parseKey(name), modes);
    if (!table.has(bytes)) table.set(bytes, name);
  }
  // Longest sequences first, so ESC [ A is read as "up", not Escape then "[A".
  return [...table].sort((a, b) => b[0].length - a[0].length);
}

export function decodeHumanInput(bytes: Uint8Array, modes: KeyboardModes): HumanStep[] {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  if (text.includes("\uFFFD") || /^\x1b\[M|^\x1b\[<\d/.test(text))
    return [{ type: "send_raw", args: { hex: Buffer.from(bytes).toString("hex") } }];
  if (text.startsWith(PASTE_START) && text.endsWith(PASTE_END))
    return [{ type: "paste", args: { text: text.slice(PASTE_START.length, -PASTE_END.length) } }];
  const table = keyTable(modes);
  const steps: HumanStep[] = [];
  let at = 0;
  while (at < text.length) {
    const key = table.find(([seq]) => text.startsWith(seq, at));
    if (key && !(key[0].length === 1 && key[0] >= " " && key[0] !== "\x7f")) {
      const last = steps.at(-1);
      if (last?.type === "send_keys") (last.args.keys as string[]).push(key[1]);
      else steps.push({ type: "send_keys", args: { keys: [key[1]] } });
      at += key[0].length;
      continue;
    }
    const ch = String.fromCodePoint(text.codePointAt(at)!);
    if (ch < " " || ch === "\x7f") {
      steps.push({ type: "send_raw", args: { hex: Buffer.from(text.slice(at), "utf8").toString("hex") } });
      break;
    }
    const last = steps.at(-1);
    if (last?.type === "send_text") last.args.text = String(last.args.text) + ch;
    else steps.push({ type: "send_text", args: { text: ch } });
    at += ch.length;
  }
  return steps;
}
