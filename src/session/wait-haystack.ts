/** The screen text a wait matches, and which of its matches count (the echo of typing does not). */
import { applyMask } from "../term/echo-cells.ts";
import { HIDDEN_CHAR, newTextOnly } from "./baseline.ts";
import type { Session } from "./session.ts";
import type { WaitTextOptions } from "./wait-spec.ts";

/**
 * The screen a wait matches (new text only with after: "input"), and which matches count: one made
 * only of the echo of typed text does not (echo.ts), one that takes in any output does, so a pattern
 * that runs from an echoed line into the prompt after it still matches. The JS fallback engine cannot
 * try candidates, so it gets the echo hidden instead.
 */
export interface Haystack {
  text: string;
  accept?: (index: number, length: number) => boolean;
  /** The text with the echo's characters hidden (for the JS fallback). */
  hidden: () => string;
}

export function screenHaystack(session: Session, options: WaitTextOptions, baseline: Session["lastInput"]): Haystack {
  const viewport = session.emulator.viewport();
  const lines = baseline === null ? viewport.lines : newTextOnly(baseline, viewport);
  const text = lines.join("\n");
  if (options.matchEcho) return { text, hidden: () => text };
  const mask = session.echo.mask(viewport.lines);
  if (mask.size === 0) return { text, hidden: () => text };
  const echo = new Uint8Array(text.length);
  let rowStart = 0;
  for (const [row, line] of lines.entries()) {
    for (const offset of mask.get(row) ?? []) if (offset < line.length) echo[rowStart + offset] = 1;
    rowStart += line.length + 1;
  }
  const accept = (index: number, length: number) => {
    for (let i = index; i < index + length; i++) {
      const char = text[i];
      if (echo[i] === 0 && char !== " " && char !== "\n") return true;
    }
    return false;
  };
  return { text, accept, hidden: () => applyMask(lines, mask, HIDDEN_CHAR).join("\n") };
}
