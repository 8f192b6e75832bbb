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
 *   A signal from elsewhere (a crash's SIGSEGV, the OOM killer's SIGKILL) cannot be known: the
 *   package reaps the child on its own thread and passes on only portable-pty's code, 1.
 * - output arrives as decoded strings: re-encoded to UTF-8 bytes for the raw buffer.
 * - reading cannot be paused usefully: the package's own native thread reads the PTY into an
 *   unbounded channel regardless, and serves it 4 KiB at a time from the front of one buffer, so a
 *   deep channel drains quadratically. Measured: pausing the JS reads until the parser caught up grew
 *   the server to 2.9 GB with 8 `yes` floods and stalled it; pausing at most 20 ms still let the
 *   channel run away. So this backend reads as fast as the child writes and keeps the channel short;
 *   the bound is the Emulator's (MAX_PENDING_BYTES, beyond which output is dropped and counted in
 *   droppedBytes). Only bun-terminal gives true backpressure to the child.
 *   The package's JavaScript loop (`_startReadLoop`) reads without yielding while data is there, so
 *   after every YIELD_BYTES or YIELD_MS it is stopped (clearing its `_readLoop` flag from inside the data
 *   callback; it checks the flag right after) and started again (`_startReadLoop()`) next turn.
 * - a stopped child's exit is only seen when the loop reaches the end of the channel; once we have
 *   signalled the child and its pid has been gone for EXIT_GRACE_MS, the exit is reported anyway.
 */
import type { IPty } from "bun-pty";
import { TuiError } from "../errors.ts";
import { FlowGate } from "./flow.ts";
import { deliverSignal, processExists } from "./signal.ts";
import { type PtyBackend, PtyEvents, type PtyExit, type PtyProcess, type PtySpawnOptions } from "./types.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });
const EXIT_GRACE_MS = 1000;
const YIELD_BYTES = 8 << 20;
/**
 * Also yield after this long in one burst: once the native channel is deep, each 4 KiB read moves the
 * whole channel, so 8 MiB could take minutes and the server answered nothing meanwhile (bench:
 * pressure@bun-pty timed out). Time-bounded turns keep requests, stop_session included, answered.
 */
const YIELD_MS = 10;
const encoder = new TextEncoder();

/** The private read-loop members of bun-pty's Terminal that pausing relies on (see the header). */
interface ReadLoop {
  _readLoop: boolean;
  _startReadLoop(): void;
}

function hasReadLoop(pty: IPty): pty is IPty & ReadLoop {
  return (
    "_readLoop" in pty &&
    typeof pty._readLoop === "boolean" &&
    "_startReadLoop" in pty &&
    typeof pty._startReadLoop === "function"
  );
}

class BunPtyProcess extends PtyEvents implements PtyProcess {
  private lastSignal: NodeJS.Signals | null = null;
  private exited = false;
  private closed = false;
  private paused = false;
  private readonly gate = new FlowGate();
  private exitWatch: ReturnType<typeof setInterval> | undefined;
  private burst = 0;
  private burstStarted = 0;

  private readonly loop: ReadLoop;

  constructor(private readonly pty: IPty) {
    super();
    if (!hasReadLoop(pty)) throw new Error("bun-pty's read loop changed; flow control needs _readLoop/_startReadLoop");
    this.loop = pty;
    pty.onData((text) => {
      const chunk = encoder.encode(text);
      if (this.burst === 0) this.burstStarted = performance.now();
      this.burst += chunk.length;
      this.gate.add(chunk.length); // counted for `backlog` only: see the header
      if (
        (this.burst >= YIELD_BYTES || performance.now() - this.burstStarted >= YIELD_MS) &&
        !this.exited &&
        !this.paused
      ) {
        this.paused = true;
        this.burst = 0;
        this.loop._readLoop = false; // the loop ends as soon as this callback returns
        setImmediate(() => this.resume());
      }
      this.emitData(chunk);
    });
    pty.onExit(({ exitCode }) => {
      const bySignal = this.lastSignal !== null && exitCode === 1;
      this.reportExit({ exitCode: bySignal ? null : exitCode, signal: bySignal ? this.lastSignal : null });
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
        "Send UTF-8 text, or run on the bun-terminal backend " +
          "(TUI_TESTER_PTY=bun-terminal, POSIX) which sends raw bytes.",
      );
    }
    if (!this.exited) this.pty.write(text);
  }

  resize(cols: number, rows: number): void {
    if (!this.exited) this.pty.resize(cols, rows);
  }

  get backlog(): number {
    return this.gate.pending;
  }

  consumed(bytes: number): void {
    this.gate.release(bytes);
  }

  private resume(): void {
    if (!this.paused || this.closed) return;
    this.paused = false;
    this.loop._startReadLoop();
  }

  signal(signal: NodeJS.Signals): boolean {
    if (this.exited) return false;
    const delivered = deliverSignal(this.pty.pid, signal);
    if (delivered) {
      this.lastSignal = signal;
      this.watchForExit();
    }
    return delivered;
  }

  private reportExit(exit: PtyExit): void {
    if (this.exited) return; // the fake exit fired by kill() in close(), or already reported
    this.exited = true;
    clearInterval(this.exitWatch);
    this.emitExit(exit);
  }

  /** See the header: report a signalled child's exit even while its output backlog is still queued. */
  private watchForExit(): void {
    if (this.exitWatch !== undefined) return;
    let goneSince: number | undefined;
    this.exitWatch = setInterval(() => {
      if (processExists(this.pty.pid)) return;
      goneSince ??= performance.now();
      if (performance.now() - goneSince < EXIT_GRACE_MS) return;
      this.reportExit({ exitCode: null, signal: this.lastSignal });
      this.close();
    }, 50);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.exitWatch);
    const live = !this.exited;
    if (live) this.signal("SIGKILL");
    // kill() only frees the native handle and stops the read loop; its fake exit must not be reported,
    // so the exit is reported here: the read loop that would have seen the real one is gone.
    this.exited = true;
    this.pty.kill();
    if (live) this.emitExit({ exitCode: null, signal: this.lastSignal });
  }
}

export async function loadBunPtyBackend(): Promise<PtyBackend> {
  const { spawn } = await import("bun-pty");
  return {
    name: "bun-pty",
    spawn: async (options: PtySpawnOptions) =>
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
