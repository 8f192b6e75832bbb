/**
 * What an exited session keeps of its terminal: the final screen as one serialized stream (history
 * capped) and the newest raw output, so an exited session holds a few KiB instead of a live emulator.
 */
import { Emulator, type EmulatorOptions } from "../term/emulator.ts";
import { ByteRing } from "../util/ring-buffer.ts";

/** What an exited session keeps: its raw output tail, and its final screen with at most this much history. */
const EXITED_RAW_TAIL_BYTES = 64 * 1024;
const EXITED_SCREEN_MAX_CHARS = 256 * 1024;
const EXITED_SCROLLBACK_LINES = 1000;
/** A kept screen rebuilt for reading is dropped again after this long. */
const RESTORED_TTL_MS = 30_000;

export class FinalScreen {
  private restored: { emulator: Emulator; timer: ReturnType<typeof setTimeout> } | null = null;

  /** `options` gives the emulator options for a given scrollback (the session's size and theme). */
  private constructor(
    private readonly state: string,
    readonly droppedBytes: number,
    private readonly options: (scrollback: number) => EmulatorOptions,
  ) {}

  /** Keep the live emulator's final screen, shrinking its history until it fits EXITED_SCREEN_MAX_CHARS. */
  static keep(live: Emulator, options: (scrollback: number) => EmulatorOptions): FinalScreen {
    let lines = EXITED_SCROLLBACK_LINES;
    let state = live.serializeScreen(lines);
    while (state.length > EXITED_SCREEN_MAX_CHARS && lines > 0) state = live.serializeScreen((lines >>= 2));
    return new FinalScreen(state, live.droppedBytes, options);
  }

  /** The kept screen's size in bytes (UTF-16). */
  get bytes(): number {
    return this.state.length * 2;
  }

  /** A throwaway terminal rebuilt from the kept screen, reused for RESTORED_TTL_MS after it is made. */
  emulator(): Emulator {
    if (this.restored !== null) return this.restored.emulator;
    const emulator = Emulator.restore(this.state, this.options(EXITED_SCROLLBACK_LINES));
    const timer = setTimeout(() => this.dispose(), RESTORED_TTL_MS);
    timer.unref?.();
    this.restored = { emulator, timer };
    return emulator;
  }

  /** Drop the rebuilt terminal (the kept screen stays, and is rebuilt on the next read). */
  dispose(): void {
    if (this.restored === null) return;
    clearTimeout(this.restored.timer);
    this.restored.emulator.dispose();
    this.restored = null;
  }
}

/** The newest EXITED_RAW_TAIL_BYTES of a raw output ring, keeping its byte count. */
export function rawTail(raw: ByteRing): ByteRing {
  const tail = new ByteRing(Math.min(EXITED_RAW_TAIL_BYTES, raw.capacity));
  tail.append(raw.tail(tail.capacity));
  tail.total = raw.total;
  return tail;
}
