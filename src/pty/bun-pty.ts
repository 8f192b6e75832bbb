/**
 * PTY backend on the `bun-pty` package (0.4.11), the portable choice (Windows ConPTY included).
 * It hides these quirks of the package, each covered by test/pty/backend.test.ts:
 * - `kill()` sends no signal and fires a fake `{ exitCode: 0 }`: real signals go through
 *   `process.kill(pid, sig)`, and `kill()` is only used to release the handle after the real exit.
 * - the `name` option does not set TERM in the child: TERM always comes in through `env`.
 * - `write()` takes a string and UTF-8-encodes it: bytes that are not valid UTF-8 cannot be
 *   delivered exactly, so they are refused with an error instead of being silently altered.
 * - a process killed by a signal is reported as exit code 1 (portable-pty's convention): when we
 *   delivered a signal and the process then ends with code 1, the signal is reported instead.
 * - output arrives as decoded strings: re-encoded to UTF-8 bytes for the raw buffer.
 */
import type { IPty } from "bun-pty";
import { TuiError } from "../errors.ts";
import { deliverSignal } from "./signal.ts";
import { PtyEvents, type PtyBackend, type PtyExit, type PtyProcess, type PtySpawnOptions } from "./types.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

class BunPtyProcess extends PtyEvents implements PtyProcess {
  private lastSignal: NodeJS.Signals | null = null;
  private exited = false;
  private closed = false;

  constructor(private readonly pty: IPty) {
    super();
    pty.onData((text) => this.emitData(encoder.encode(text)));
    pty.onExit(({ exitCode }) => {
      if (this.exited) return; // the fake exit fired by kill() in close()
      this.exited = true;
      const bySignal = this.lastSignal !== null && exitCode === 1;
      this.emitExit({ exitCode: bySignal ? null : exitCode, signal: bySignal ? this.lastSignal : null });
    });
  }

  get pid(): number {
    return this.pty.pid;
  }

  write(data: Uint8Array): void {
    let text: string;
    try {
      text = utf8.decode(data);
    } catch {
      throw new TuiError(
        "INVALID_ARGUMENT",
        "The bun-pty backend can only send valid UTF-8; these bytes include 0x80-0xff outside a UTF-8 sequence.",
        "Send UTF-8 text, or run on the bun-terminal backend (TUI_TESTER_PTY=bun-terminal, POSIX) which sends raw bytes.",
      );
    }
    if (!this.exited) this.pty.write(text);
  }

  resize(cols: number, rows: number): void {
    if (!this.exited) this.pty.resize(cols, rows);
  }

  signal(signal: NodeJS.Signals): boolean {
    if (this.exited) return false;
    const delivered = deliverSignal(this.pty.pid, signal);
    if (delivered) this.lastSignal = signal;
    return delivered;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.exited) this.signal("SIGKILL");
    // kill() only frees the native handle and stops the read loop; its fake exit is ignored above.
    this.exited = true;
    this.pty.kill();
  }
}

export async function loadBunPtyBackend(): Promise<PtyBackend> {
  const { spawn } = await import("bun-pty");
  return {
    name: "bun-pty",
    spawn: (options: PtySpawnOptions) =>
      new BunPtyProcess(
        spawn(options.file, options.args, {
          name: options.env.TERM ?? "xterm-256color",
          cols: options.cols,
          rows: options.rows,
          cwd: options.cwd,
          env: options.env,
        }),
      ),
  };
}
