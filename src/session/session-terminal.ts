/**
 * A session's terminal: while the program runs, the live emulator and the raw output ring; once it has
 * exited, the kept final screen and a raw tail (final-screen.ts), so an exited session holds a few KiB.
 */
import { Emulator, type EmulatorOptions } from "../term/emulator.ts";
import { ByteRing } from "../util/ring-buffer.ts";
import { FinalScreen, rawTail } from "./final-screen.ts";
import type { SessionConfig } from "./session-config.ts";

export class SessionTerminal {
  /** Output ring; on exit it shrinks to its newest bytes (its counts are kept). */
  raw: ByteRing;
  /** The live emulator; null once the program has exited and its final screen is kept. */
  private live: Emulator | null;
  private kept: FinalScreen | null = null;

  /** `size` is the session's size now; `reply` writes the emulator's answers to the program's queries. */
  constructor(
    private readonly config: Pick<SessionConfig, "rawBufferBytes" | "scrollback" | "theme">,
    private readonly size: () => { cols: number; rows: number },
    private readonly reply: (data: string) => void,
  ) {
    this.raw = new ByteRing(config.rawBufferBytes);
    this.live = new Emulator(this.options(config.scrollback));
  }

  /**
   * The terminal. After exit this is a throwaway rebuilt from the kept final screen (scrollback
   * capped), so reads keep working.
   */
  get emulator(): Emulator {
    return this.live ?? this.kept!.emulator();
  }

  /** Bytes an exited session still holds: its kept screen (UTF-16) and raw tail; null while running. */
  get keptBytes(): number | null {
    return this.kept === null ? null : this.kept.bytes + this.raw.capacity;
  }

  /** Output bytes that never reached the screen because a parser limit forced a drop (normally 0). */
  get droppedBytes(): number {
    return this.live?.droppedBytes ?? this.kept?.droppedBytes ?? 0;
  }

  /**
   * A chunk of output: into the ring, and to the parser while live; `parsed` runs once the parser has
   * taken it (at once after exit). An `owned` chunk (nobody else holds it, and it owns its whole
   * buffer) is freed as soon as it is parsed rather than at a later GC (under floods these buffers
   * were a sixth of the server's RSS).
   */
  output(chunk: Uint8Array, parsed: () => void, owned: boolean): void {
    this.raw.append(chunk);
    if (this.live === null) return parsed();
    const release = owned ? () => void (chunk.buffer as ArrayBuffer).transfer(0) : undefined;
    this.live.write(chunk, () => {
      parsed();
      release?.();
    });
  }

  /** Resolves once the parser has taken every chunk given so far; undefined once exited (nothing to parse). */
  flushed(): Promise<void> | undefined {
    return this.live?.flushed();
  }

  /** Discard output still queued for the parser (counted in droppedBytes). */
  discardQueued(): void {
    this.live?.discardQueued();
  }

  /** Swap the live emulator and the big raw ring for the final screen and a raw tail. */
  keepFinal(): void {
    const live = this.live;
    if (live === null) return;
    this.kept = FinalScreen.keep(live, (scrollback) => this.options(scrollback));
    this.live = null;
    live.dispose();
    this.raw = rawTail(this.raw);
  }

  /** Release every emulator (the live one, or the one rebuilt from the kept screen). */
  dispose(): void {
    this.kept?.dispose();
    this.live?.dispose();
  }

  private options(scrollback: number): EmulatorOptions {
    // Whatever the emulator answers to the app's queries (DSR, DA, OSC colour...) goes back to the app.
    return { ...this.size(), scrollback, theme: this.config.theme, reply: this.reply };
  }
}
