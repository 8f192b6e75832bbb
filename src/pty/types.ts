/** The small PTY interface sessions depend on. Every quirk of a PTY library stays behind it. */

export interface PtySpawnOptions {
  /** Absolute path of the executable (already resolved against PATH). */
  file: string;
  args: string[];
  cwd: string;
  /** Complete environment of the child, TERM included. */
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface PtyExit {
  /** Exit code when the process exited normally, else null. */
  exitCode: number | null;
  /** Signal name ("SIGTERM") when a signal ended the process, else null. */
  signal: string | null;
}

export interface PtyProcess {
  readonly pid: number;
  /** Send bytes to the child's stdin exactly as given. */
  write(data: Uint8Array): void;
  resize(cols: number, rows: number): void;
  /** Deliver a real signal to the child. Returns false when the process is already gone. */
  signal(signal: NodeJS.Signals): boolean;
  /**
   * Output chunks, raw bytes, in order. The consumer reports each chunk's bytes through consumed()
   * once it has dealt with them: while more than flow.ts's HIGH_WATER bytes are unreported, reading
   * pauses and the child blocks on a full PTY.
   */
  onData(listener: (chunk: Uint8Array) => void): void;
  consumed(bytes: number): void;
  /** Bytes delivered to onData listeners and not yet reported consumed. */
  readonly backlog: number;
  /** Fires once, after the last output chunk has been delivered. */
  onExit(listener: (exit: PtyExit) => void): void;
  /** Release the PTY. Safe to call more than once. */
  close(): void;
}

export interface PtyBackend {
  readonly name: string;
  /** Resolves once the child runs; rejects when it cannot be started. */
  spawn(options: PtySpawnOptions): Promise<PtyProcess>;
}

/** Fan-out helper: buffers nothing, calls listeners in order. */
class Listeners<T> {
  private readonly fns: ((value: T) => void)[] = [];
  add(fn: (value: T) => void): void {
    this.fns.push(fn);
  }
  emit(value: T): void {
    for (const fn of this.fns) fn(value);
  }
}

/**
 * The listener half of PtyProcess, shared by the adapters; they call emitData/emitExit. Spawning is
 * asynchronous, so what happens before the first listener is attached is held for it, not lost.
 */
export abstract class PtyEvents {
  private readonly dataListeners = new Listeners<Uint8Array>();
  private readonly exitListeners = new Listeners<PtyExit>();
  private early: Uint8Array[] | null = [];
  private exitSeen: PtyExit | null = null;

  onData(listener: (chunk: Uint8Array) => void): void {
    this.dataListeners.add(listener);
    const early = this.early;
    this.early = null;
    for (const chunk of early ?? []) listener(chunk);
  }

  onExit(listener: (exit: PtyExit) => void): void {
    this.exitListeners.add(listener);
    if (this.exitSeen !== null) listener(this.exitSeen);
  }

  protected emitData(chunk: Uint8Array): void {
    if (this.early !== null) this.early.push(chunk);
    else this.dataListeners.emit(chunk);
  }

  protected emitExit(exit: PtyExit): void {
    this.exitSeen = exit;
    this.exitListeners.emit(exit);
  }
}
