/**
 * Reads of the visible screen (its text rows and highlights), kept until the screen may have changed.
 *
 * One input reads the same unchanged screen several times: the screen before it, the baseline its
 * waits compare against, the save_test history's look, and the previous input's reply read it last.
 * With 32 sessions answering at once those reads were a third of the server's work before the first
 * key went out (bench/README.md, the 32-session regression). Everything that can change what the
 * viewport shows goes through the emulator: a parse (xterm.js's writeSync) or a resize, and each calls
 * `changed()`.
 *
 * The arrays handed out are frozen and shared: a caller that changed one would throw (strict mode),
 * not corrupt another caller's view.
 */
import type { Terminal } from "@xterm/headless";
import { viewportHighlights } from "./highlights.ts";
import { viewportLines } from "./snapshot.ts";
import type { Highlight } from "./types.ts";

export class ScreenReads {
  private version = 0;
  private linesVersion = -1;
  private lines: string[] = [];
  private highlightsVersion = -1;
  private highlights: Highlight[] = [];

  constructor(private readonly terminal: Terminal) {}

  /**
   * The screen may differ from what was read. Called before and after each parse: a read made inside
   * the parser (a synchronized update's release listener) is then not kept past the parse's end.
   */
  changed(): void {
    this.version++;
  }

  /** `parse` with the screen marked as changing around it. */
  parsing<T>(parse: (data: T) => void): (data: T) => void {
    return (data) => {
      this.changed();
      try {
        parse(data);
      } finally {
        this.changed();
      }
    };
  }

  /** The visible rows, trailing blanks trimmed (snapshot.ts viewportLines). */
  viewportLines(): string[] {
    if (this.linesVersion !== this.version) {
      this.lines = Object.freeze(viewportLines(this.terminal)) as string[];
      this.linesVersion = this.version;
    }
    return this.lines;
  }

  /** What the text view loses: selection in inverse, colour, bold (highlights.ts). */
  viewportHighlights(): Highlight[] {
    if (this.highlightsVersion !== this.version) {
      this.highlights = Object.freeze(viewportHighlights(this.terminal).map((h) => Object.freeze(h))) as Highlight[];
      this.highlightsVersion = this.version;
    }
    return this.highlights;
  }
}
