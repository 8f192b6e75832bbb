/** A Session is one child process in a PTY, its emulator, its raw output ring, and its lifecycle. */
import { TuiError } from "../errors.ts";
import type { PtyBackend, PtyExit, PtyProcess } from "../pty/index.ts";
import { Emulator } from "../term/emulator.ts";
import type { TerminalModes, TerminalTheme } from "../term/types.ts";
import { ByteRing } from "../util/ring-buffer.ts";

const utf8 = new TextEncoder();

/** Who typed: the agent through a tool, or a human through the web viewer. */
export type InputSource = "agent" | "human";

export type SessionState = "starting" | "running" | "exited";

export interface SessionConfig {
  id: string;
  name?: string;
  file: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  term: string;
  rawBufferBytes: number;
  scrollback: number;
  theme?: Partial<TerminalTheme>;
}

export interface ExitInfo {
  exitCode: number | null;
  signal: string | null;
  exitedAt: string;
  /** Milliseconds from spawn to exit. */
  runtimeMs: number;
}

export class Session {
  readonly id: string;
  readonly name: string | undefined;
  readonly createdAt = Date.now();
  readonly emulator: Emulator;
  readonly raw: ByteRing;
  state: SessionState = "starting";
  exit: ExitInfo | null = null;
  /** performance.now() of the latest output chunk (or of spawn). */
  lastOutputAt = performance.now();
  cols: number;
  rows: number;
  private readonly pty: PtyProcess;
  private readonly outputListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly exitListeners = new Set<(exit: ExitInfo) => void>();
  private readonly resizeListeners = new Set<(size: { cols: number; rows: number }) => void>();
  private readonly inputListeners = new Set<(bytes: Uint8Array, from: InputSource) => void>();
  /** Checked before agent input is written; the web viewer's takeover lease throws HUMAN_IN_CONTROL from it. */
  inputGate: (() => void) | undefined;
  private readonly exited = Promise.withResolvers<ExitInfo>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly config: SessionConfig,
    backend: PtyBackend,
  ) {
    this.id = config.id;
    this.name = config.name;
    this.cols = config.cols;
    this.rows = config.rows;
    this.raw = new ByteRing(config.rawBufferBytes);
    // Whatever the emulator answers to the app's queries (DSR, DA, OSC colour...) goes back to the app.
    this.emulator = new Emulator({
      cols: config.cols,
      rows: config.rows,
      scrollback: config.scrollback,
      theme: config.theme,
      reply: (data) => this.replyToApp(data),
    });
    this.pty = backend.spawn({ file: config.file, args: config.args, cwd: config.cwd, env: config.env, cols: config.cols, rows: config.rows });
    this.pty.onData((chunk) => this.handleOutput(chunk));
    this.pty.onExit((exit) => void this.handleExit(exit));
    this.state = "running";
  }

  get pid(): number {
    return this.pty.pid;
  }

  get bytesOut(): number {
    return this.raw.total;
  }

  get running(): boolean {
    return this.state === "running";
  }

  /** Resolves with the exit info once the process has exited and its last output is parsed. */
  whenExited(): Promise<ExitInfo> {
    return this.exited.promise;
  }

  onOutput(listener: (chunk: Uint8Array) => void): () => void {
    this.outputListeners.add(listener);
    return () => this.outputListeners.delete(listener);
  }

  onResize(listener: (size: { cols: number; rows: number }) => void): () => void {
    this.resizeListeners.add(listener);
    return () => this.resizeListeners.delete(listener);
  }

  /** Every write to the program (agent or human), after it was written. */
  onInput(listener: (bytes: Uint8Array, from: InputSource) => void): () => void {
    this.inputListeners.add(listener);
    return () => this.inputListeners.delete(listener);
  }

  onExit(listener: (exit: ExitInfo) => void): () => void {
    this.exitListeners.add(listener);
    return () => this.exitListeners.delete(listener);
  }

  /** Throws a SESSION_EXITED error carrying the exit info when the process is gone. */
  assertRunning(): void {
    if (this.state === "running") return;
    throw new TuiError(
      "SESSION_EXITED",
      `Session ${this.id} has exited (${describeExit(this.exit)}); it accepts no more input.`,
      "Read what it left with get_exit_info, get_text or get_raw_output, or start a new session with start_session.",
      { exit: this.exit },
    );
  }

  write(bytes: Uint8Array, from: InputSource = "agent"): void {
    this.assertRunning();
    if (from === "agent") this.inputGate?.();
    this.pty.write(bytes);
    for (const listener of this.inputListeners) listener(bytes, from);
  }

  resize(cols: number, rows: number): void {
    this.assertRunning();
    this.cols = cols;
    this.rows = rows;
    this.pty.resize(cols, rows);
    this.emulator.resize(cols, rows);
    for (const listener of this.resizeListeners) listener({ cols, rows });
  }

  /** Deliver a signal to the process group. False when the process is already gone. */
  signal(signal: NodeJS.Signals): boolean {
    return this.state === "running" && this.pty.signal(signal);
  }

  modes(): TerminalModes {
    return this.emulator.modes();
  }

  /** Run tasks for this session one at a time, in call order (like one user at one keyboard). */
  serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Release the PTY. The process must have exited or been killed first. */
  dispose(): void {
    this.pty.close();
  }

  private replyToApp(data: string): void {
    if (this.state === "running") this.pty.write(utf8.encode(data));
  }

  private handleOutput(chunk: Uint8Array): void {
    this.lastOutputAt = performance.now();
    this.raw.append(chunk);
    this.emulator.write(chunk);
    for (const listener of this.outputListeners) listener(chunk);
  }

  private async handleExit(exit: PtyExit): Promise<void> {
    // Exit is reported only after the parser has taken the final bytes, so the tail is on screen.
    await this.emulator.flushed();
    this.state = "exited";
    this.exit = {
      exitCode: exit.exitCode,
      signal: exit.signal,
      exitedAt: new Date().toISOString(),
      runtimeMs: Date.now() - this.createdAt,
    };
    for (const listener of this.exitListeners) listener(this.exit);
    this.exited.resolve(this.exit);
    this.pty.close();
  }
}

export function describeExit(exit: ExitInfo | null): string {
  if (exit === null) return "still running";
  return exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${exit.exitCode}`;
}
