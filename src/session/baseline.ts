/**
 * "New text only" (waitFor { after: "input" }): the screen as it was just before an input, and the
 * current screen with every word that was already there, at the same place, hidden.
 *
 * Places are buffer lines, not screen rows, so on the main screen a prompt that scrolled up one row
 * is still the old prompt and the fresh one below it is new. A switch between the main and the
 * alternate screen makes everything new. Spaces are never hidden (they are not text), so a pattern
 * with spaces still matches across an unchanged gap.
 */

/** Stands in for a character that was on screen before the input; no literal pattern contains it. */
export const HIDDEN_CHAR = "\u0000";

export interface Viewport {
  /** Buffer line of screen row 0. */
  top: number;
  screen: "main" | "alternate";
  lines: string[];
  /** The cursor's screen row. */
  cursorRow?: number;
}

export interface ScreenBaseline extends Viewport {
  /** Raw output bytes the session had written when the input began. */
  rawTotal: number;
}

/**
 * The current rows with each word (a run of non-blank characters) that stood, the same, at the same
 * buffer place in `before` replaced by HIDDEN_CHARs. Whole words, not characters: a new word drawn
 * where an old one had a letter in common is still new.
 */
export function newTextOnly(before: Viewport, now: Viewport): string[] {
  if (before.screen !== now.screen) return now.lines;
  return now.lines.map((line, row) => {
    const old = before.lines[now.top + row - before.top];
    if (old === undefined || old.length === 0) return line;
    return line.replace(/\S+/g, (word, at: number) => {
      const same = old.startsWith(word, at) && (old[at - 1] ?? " ") === " " && (old[at + word.length] ?? " ") === " ";
      return same ? HIDDEN_CHAR.repeat(word.length) : word;
    });
  });
}

/** Row spans of `now` whose characters are new since `before` (HIDDEN_CHAR-free stretches), per row. */
export function changedSpans(before: Viewport, now: Viewport): { row: number; col: number; text: string }[] {
  const spans: { row: number; col: number; text: string }[] = [];
  for (const [row, line] of newTextOnly(before, now).entries()) {
    const re = /[^\u0000]+/g;
    for (let m = re.exec(line); m !== null; m = re.exec(line)) {
      if (m[0].trim().length > 0) spans.push({ row, col: m.index, text: m[0] });
    }
  }
  return spans;
}
