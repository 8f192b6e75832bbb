/**
 * PTY backend on Bun's built-in `Bun.Terminal` + `Bun.spawn({ terminal })` (POSIX only).
 * Preferred where available: output arrives as raw bytes, reads are event-driven (no poll
 * interval), and `Subprocess` reports the real exit code or signal.
 */
import { deliverSignal } from "./signal.ts";
import { PtyEvents, type PtyBackend, type PtyExit, type PtyProcess, type PtySpawnOptions } from "./types.ts";

/**
 * The process can be reaped before the PTY has delivered its last bytes; the terminal's `exit`
 * callback (EOF on the master) marks the end of output. Should EOF never come (a grandchild
 * keeping the slave open), stop waiting for it this long after the process exits.
 */
const EOF_GRACE_MS = 1000;

class BunTerminalProcess extends PtyEvents implements PtyProcess {
  private readonly terminal: Bun.Terminal;
  private readonly proc: Bun.Subprocess;
  private eof = Promise.withResolvers<void>();
  private closed = false;

  constructor(options: PtySpawnOptions) {
    super();
    // Inline terminal options (not a shared Bun.Terminal instance): the parent then holds no slave
    // fd, so EOF on the master marks the true end of the child's output.
    this.proc = Bun.spawn([options.file, ...options.args], {
      cwd: options.cwd,
      env: options.env,
      terminal: {
        cols: options.cols,
        rows: options.rows,
        name: options.env.TERM ?? "xterm-256color",
        data: (_t, chunk) => this.emitData(chunk),
        exit: () => this.eof.resolve(),
      },
    });
    const terminal = this.proc.terminal;
    if (terminal === undefined) throw new Error("Bun.spawn returned no terminal");
    this.terminal = terminal;
    void this.proc.exited.then(async () => {
      await Promise.race([this.eof.promise, Bun.sleep(EOF_GRACE_MS)]);
      this.emitExit({ exitCode: this.proc.exitCode, signal: typeof this.proc.signalCode === "string" ? this.proc.signalCode : null });
    });
  }

  get pid(): number {
    return this.proc.pid;
  }

  write(data: Uint8Array): void {
    if (!this.closed) this.terminal.write(data);
  }

  resize(cols: number, rows: number): void {
    if (!this.closed) this.terminal.resize(cols, rows);
  }

  signal(signal: NodeJS.Signals): boolean {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return false;
    return deliverSignal(this.proc.pid, signal);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.terminal.close();
  }
}

export const bunTerminalBackend: PtyBackend = {
  name: "bun-terminal",
  spawn: (options) => new BunTerminalProcess(options),
};

export function bunTerminalAvailable(): boolean {
  return process.platform !== "win32" && typeof (Bun as { Terminal?: unknown }).Terminal === "function";
}
