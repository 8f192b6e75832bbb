/** The bound on input sent to a program that is not reading it (INPUT_BLOCKED). */
import { TuiError } from "../errors.ts";

/**
 * Input sent since the program was last seen reading, beyond which input tools refuse more
 * (INPUT_BLOCKED). Neither PTY backend can say how much written input is still waiting (Bun.Terminal
 * and bun-pty both buffer it without limit), so "reading" is judged by the bytes the session's
 * processes have read (/proc/<pid>/io on Linux). Where that is unknown (macOS), input is not capped.
 */
export const INPUT_CAP_BYTES = 1 << 20;

export class InputCap {
  private inputSinceRead = 0;
  private readMark: number | null = null;

  /** `bytesReadByProgram` is what the program's processes have read so far, or null where unknown. */
  constructor(
    private readonly sessionId: string,
    private readonly bytesReadByProgram: () => number | null,
  ) {}

  /** Before writing `size` bytes: throws INPUT_BLOCKED past INPUT_CAP_BYTES unread. */
  check(size: number): void {
    if (this.inputSinceRead === 0) this.readMark = this.bytesReadByProgram();
    else if (this.inputSinceRead + size > INPUT_CAP_BYTES) this.assertReading();
  }

  /** After writing `size` bytes. */
  wrote(size: number): void {
    this.inputSinceRead += size;
  }

  /** Lets input through while the program's processes keep reading (or where that cannot be known). */
  private assertReading(): void {
    const read = this.bytesReadByProgram();
    if (read === null || read !== this.readMark) {
      this.readMark = read;
      this.inputSinceRead = 0;
      return;
    }
    throw new TuiError(
      "INPUT_BLOCKED",
      `Session ${this.sessionId}: the program is not reading its input; ` +
        `${this.inputSinceRead} bytes sent since it last read are still waiting (limit ` +
        `${INPUT_CAP_BYTES}).`,
      "Wait until the program reads again (wait_for_text on its prompt), or stop it with stop_session.",
      { pendingInputBytes: this.inputSinceRead },
    );
  }
}
