/**
 * What the terminal echoed from the latest inputs, so a wait does not take a command line it was
 * typed on for the program's answer (`send_text "make; echo DONE\r"` with waitFor "DONE").
 *
 * Positions, not guesses: each input's text up to its first Enter is echoed where the cursor stood
 * when the input began (term/echo-cells.ts walks those cells); a line typed after an Enter is echoed
 * at the program's next prompt, and is located as the first place its text appears after the
 * previous line's echo. A program that prints the typed text itself prints it elsewhere (below the
 * echo), so that stays a match.
 *
 * Typing is followed as a line editor would take it: Backspace removes the last character; an
 * escape sequence (a cursor key), a Tab (completion) or another control key ends the line at a place
 * this cannot know, so what follows is located like a line after an Enter.
 */
import type { EchoMask, EchoSegment } from "../term/echo-cells.ts";
import type { Emulator } from "../term/emulator.ts";

/** Typed lines remembered (oldest dropped): a wait masks the echo of recent typing, not all history. */
export const MAX_ECHO_SEGMENTS = 32;
/** Characters kept of one typed line: more than a screen holds is never all visible. */
const MAX_SEGMENT_CHARS = 16 * 1024;

export interface EchoHost {
  readonly emulator: Emulator;
  readonly running: boolean;
  onInputStart(listener: () => void): () => void;
  onInput(listener: (bytes: Uint8Array) => void): () => void;
}

export class EchoTracker {
  private readonly segments: EchoSegment[] = [];
  /** The column the latest input began at: where a prompt of the same width puts its later lines. */
  private promptCol: number | undefined;
  /** The line being typed, while it still grows from its anchor. */
  private current: EchoSegment | null = null;
  private readonly decoder = new TextDecoder();
  /** Inside an escape sequence of the input: "esc" after ESC, "csi" / "osc" / "ss3" inside one. */
  private escape: "" | "esc" | "csi" | "osc" | "ss3" = "";
  /** The last mask computed on the live terminal, reused on the kept screen after exit. */
  private lastMask: { lines: readonly string[]; mask: EchoMask } | null = null;

  constructor(private readonly host: EchoHost) {
    host.onInputStart(() => this.begin());
    host.onInput((bytes) => this.typed(this.decoder.decode(bytes, { stream: true })));
  }

  /** The echo cells of the recent typing on the visible screen. */
  mask(lines: readonly string[]): EchoMask {
    if (this.segments.length === 0) return new Map();
    if (!this.host.running) {
      const last = this.lastMask;
      return last && last.lines.length === lines.length && last.lines.every((l, i) => l === lines[i])
        ? last.mask
        : new Map();
    }
    const mask = this.host.emulator.echoMask(this.segments);
    this.lastMask = { lines, mask };
    return mask;
  }

  private begin(): void {
    // A new input starts where the cursor is now, whatever the previous one left.
    this.current = this.push({ text: "", anchor: this.host.emulator.anchorAtCursor() });
    this.promptCol = this.current.anchor?.col;
  }

  private push(segment: EchoSegment): EchoSegment {
    this.segments.push(segment);
    while (this.segments.length > MAX_ECHO_SEGMENTS) this.segments.shift()?.anchor?.marker.dispose();
    return segment;
  }

  /** A line typed after this point is echoed at a place found later (its anchor is null until then). */
  private breakLine(): void {
    this.current = null;
  }

  private append(char: string): void {
    if (this.current === null)
      this.current = this.push({
        text: "",
        anchor: null,
        ...(this.promptCol !== undefined ? { promptCol: this.promptCol } : {}),
      });
    if (this.current.text.length < MAX_SEGMENT_CHARS) this.current.text += char;
  }

  private typed(text: string): void {
    for (const char of text) {
      const code = char.codePointAt(0)!;
      if (this.escape !== "") {
        this.inEscape(char, code);
        continue;
      }
      if (code === 0x1b) this.escape = "esc";
      else if (code === 0x7f || code === 0x08) {
        if (this.current) this.current.text = [...this.current.text].slice(0, -1).join("");
      } else if (code < 0x20 || (code >= 0x80 && code < 0xa0)) this.breakLine();
      else this.append(char);
    }
  }

  private inEscape(char: string, code: number): void {
    switch (this.escape) {
      case "esc":
        this.breakLine();
        this.escape = char === "[" ? "csi" : char === "]" ? "osc" : char === "O" ? "ss3" : "";
        return;
      case "csi":
        if (code >= 0x40 && code <= 0x7e) this.escape = "";
        return;
      case "ss3":
        this.escape = "";
        return;
      case "osc":
        if (code === 0x07 || code === 0x1b) this.escape = "";
        return;
    }
  }
}
