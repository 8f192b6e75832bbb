/** A Session is one child process in a PTY, its emulator, its raw output ring, and its lifecycle. */
import { TuiError } from "../errors.ts";
import { bytesRead, descendants, type PtyBackend, type PtyExit, type PtyProcess } from "../pty/index.ts";
import { Emulator, type EmulatorOptions } from "../term/emulator.ts";
import type { TerminalModes, TerminalTheme } from "../term/types.ts";
import { ByteRing } from "../util/ring-buffer.ts";
import type { ScreenBaseline } from "./baseline.ts";
import { InputHistory, type LaunchArgs } from "./history.ts";

const utf8 = new TextEncoder();

/**
 * Input sent since the program was last seen reading, beyond which input tools refuse more
 * (INPUT_BLOCKED). Neither PTY backend can say how much written input is still waiting (Bun.Terminal
 * and bun-pty both buffer it without limit), so "reading" is judged by the bytes the session's
 * processes have read (/proc/<pid>/io on Linux). Where that is unknown (macOS), input is not capped.
 */
export const INPUT_CAP_BYTES = 1 << 20;
/** What an exited session keeps: its raw output tail, and its final screen with at most this much history. */
const EXITED_RAW_TAIL_BYTES = 64 * 1024;
const EXITED_SCREEN_MAX_CHARS = 256 * 1024;
const EXITED_SCROLLBACK_LINES = 1000;
/** A kept screen rebuilt for reading is dropped again after this long. */
const RESTORED_TTL_MS = 30_000;
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
  /** quiet: never use the ready oracle (TUI_TESTER_READY); default auto. */
  ready?: "auto" | "quiet";
  /** start_session's arguments as the agent gave them (the input history writes them into a test). */
  launch?: LaunchArgs;
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
  /** Output ring; on exit it shrinks to the newest EXITED_RAW_TAIL_BYTES (its counts are kept). */
  raw: ByteRing;
  state: SessionState = "starting";
  exit: ExitInfo | null = null;
  /** performance.now() of the latest output chunk (or of spawn). */
  lastOutputAt = performance.now();
  cols: number;
  rows: number;
  private readonly pty: PtyProcess;
  /** The live emulator; null once the session has exited and kept its final screen. */
  private live: Emulator | null;
  private kept: { state: string; droppedBytes: number } | null = null;
  private restored: { emulator: Emulator; timer: ReturnType<typeof setTimeout> } | null = null;
  private inputSinceRead = 0;
  private readMark: number | null = null;
  private readonly outputListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly exitListeners = new Set<(exit: ExitInfo) => void>();
  private readonly resizeListeners = new Set<(size: { cols: number; rows: number }, from: InputSource) => void>();
  private readonly inputStartListeners = new Set<(baseline: ScreenBaseline, from: InputSource) => void>();
  /** The screen just before the latest input began: what waitFor { after: "input" } compares with. */
  lastInput: ScreenBaseline | null = null;
  private inputGroupDepth = 0;
  private inputGroupStarted = false;
  private readonly inputListeners = new Set<(bytes: Uint8Array, from: InputSource) => void>();
  /** Checked before agent input or a resize; the web viewer's takeover lease throws HUMAN_IN_CONTROL from it. */
  inputGate: (() => void) | undefined;
  private readonly exited = Promise.withResolvers<ExitInfo>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Every input, wait and check in order, for save_test (bounded: see history.ts). */
  readonly history: InputHistory;

  /** Spawn the child in a PTY of the backend; resolves once it runs. */
  static async start(config: SessionConfig, backend: PtyBackend): Promise<Session> {
    const pty = await backend.spawn({ file: config.file, args: config.args, cwd: config.cwd, env: config.env, cols: config.cols, rows: config.rows });
    return new Session(config, pty);
  }

  private constructor(
    readonly config: SessionConfig,
    pty: PtyProcess,
  ) {
    this.id = config.id;
    this.name = config.name;
    this.cols = config.cols;
    this.rows = config.rows;
    this.raw = new ByteRing(config.rawBufferBytes);
    this.live = new Emulator(this.emulatorOptions(config.scrollback));
    this.pty = pty;
    this.pty.onData((chunk) => this.handleOutput(chunk));
    this.pty.onExit((exit) => void this.handleExit(exit));
    this.state = "running";
    this.history = new InputHistory(this, config.launch ?? { command: config.command, args: config.args, cwd: config.cwd, cols: config.cols, rows: config.rows, term: config.term });
  }

  /**
   * The session's terminal. After exit this is a throwaway rebuilt from the kept final screen
   * (scrollback capped), so reads keep working while an exited session holds only a few KiB.
   */
  get emulator(): Emulator {
    if (this.live !== null) return this.live;
    if (this.restored !== null) return this.restored.emulator;
    const kept = this.kept!;
    const emulator = Emulator.restore(kept.state, this.emulatorOptions(EXITED_SCROLLBACK_LINES));
    const timer = setTimeout(() => this.dropRestored(), RESTORED_TTL_MS);
    timer.unref?.();
    this.restored = { emulator, timer };
    return emulator;
  }

  /** Bytes an exited session still holds: its kept screen (UTF-16) and raw tail; null while running. */
  get keptBytes(): number | null {
    return this.kept === null ? null : this.kept.state.length * 2 + this.raw.capacity;
  }

  /** Output bytes that never reached the screen because a parser limit forced a drop (normally 0). */
  get droppedBytes(): number {
    return this.live?.droppedBytes ?? this.kept?.droppedBytes ?? 0;
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

  /** An input begins (the first write or resize of one input call): the screen just before it. */
  onInputStart(listener: (baseline: ScreenBaseline, from: InputSource) => void): () => void {
    this.inputStartListeners.add(listener);
    return () => this.inputStartListeners.delete(listener);
  }

  /**
   * Run one input call whose bytes go out in several writes (type_text, hold_key, a mouse click), so
   * "the input" of waitFor { after: "input" } is the whole call, measured from before its first write.
   */
  async asOneInput<T>(action: () => T | Promise<T>): Promise<T> {
    if (this.inputGroupDepth++ === 0) this.inputGroupStarted = false;
    try {
      return await action();
    } finally {
      this.inputGroupDepth--;
    }
  }

  onResize(listener: (size: { cols: number; rows: number }, from: InputSource) => void): () => void {
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

  /**
   * Send input. Input to a program that does not read piles up (in the PTY layer's buffer), so past
   * INPUT_CAP_BYTES since the program was last seen reading, further input is refused.
   * Agent input is refused while a human holds control (the web viewer's input gate).
   */
  write(bytes: Uint8Array, from: InputSource = "agent"): void {
    this.assertRunning();
    if (from === "agent") this.inputGate?.();
    if (this.inputSinceRead === 0) this.readMark = this.bytesReadByProgram();
    else if (this.inputSinceRead + bytes.length > INPUT_CAP_BYTES) this.assertReading();
    this.inputBegins(from);
    this.pty.write(bytes);
    this.inputSinceRead += bytes.length;
    for (const listener of this.inputListeners) listener(bytes, from);
  }

  /** Resize the PTY and the emulator; refused to the agent, like input, while a human holds control. */
  resize(cols: number, rows: number, from: InputSource = "agent"): void {
    this.assertRunning();
    if (from === "agent") this.inputGate?.();
    this.inputBegins(from);
    this.cols = cols;
    this.rows = rows;
    this.pty.resize(cols, rows);
    this.emulator.resize(cols, rows);
    for (const listener of this.resizeListeners) listener({ cols, rows }, from);
  }

  /** Keep the screen as it is before this input (once per asOneInput group), then tell the listeners. */
  private inputBegins(from: InputSource): void {
    if (this.inputGroupDepth > 0 && this.inputGroupStarted) return;
    if (this.inputGroupDepth > 0) this.inputGroupStarted = true;
    this.lastInput = { ...this.emulator.viewport(), rawTotal: this.raw.total };
    for (const listener of this.inputStartListeners) listener(this.lastInput, from);
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

  /** Output read from the PTY and not parsed yet (bounded by the flow control's high-water mark). */
  get outputBacklog(): number {
    return this.pty.backlog;
  }

  /**
   * Close the PTY as a closed terminal window does: the line hangs up, nothing more is read, and
   * output still queued for the parser is discarded (counted in droppedBytes). For stopping a flood
   * without parsing its backlog first. The exit is still reported.
   */
  hangUp(): void {
    this.pty.close();
    this.live?.discardQueued();
  }

  /** Release the PTY and every terminal. The process must have exited or been killed first. */
  dispose(): void {
    this.pty.close();
    this.dropRestored();
    this.live?.dispose();
  }

  private emulatorOptions(scrollback: number): EmulatorOptions {
    // Whatever the emulator answers to the app's queries (DSR, DA, OSC colour...) goes back to the app.
    return { cols: this.cols, rows: this.rows, scrollback, theme: this.config.theme, reply: (data) => this.replyToApp(data) };
  }

  private bytesReadByProgram(): number | null {
    return bytesRead([this.pid, ...descendants(this.pid)]);
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
      `Session ${this.id}: the program is not reading its input; ${this.inputSinceRead} bytes sent since it last read are still waiting (limit ${INPUT_CAP_BYTES}).`,
      "Wait until the program reads again (wait_for_text on its prompt), or stop it with stop_session.",
      { pendingInputBytes: this.inputSinceRead },
    );
  }

  private dropRestored(): void {
    if (this.restored === null) return;
    clearTimeout(this.restored.timer);
    this.restored.emulator.dispose();
    this.restored = null;
  }

  private replyToApp(data: string): void {
    if (this.state === "running") this.pty.write(utf8.encode(data));
  }

  private handleOutput(chunk: Uint8Array): void {
    this.lastOutputAt = performance.now();
    this.raw.append(chunk);
    const bytes = chunk.length;
    // Reporting parsed bytes back is what lets the PTY layer read on (flow control, src/pty/flow.ts).
    // A chunk nobody else was handed, owning its whole buffer, is freed as soon as it is parsed rather
    // than at a later GC (under floods these buffers were a sixth of the server's RSS).
    const owned = this.outputListeners.size === 0 && chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer;
    const release = owned ? () => void (chunk.buffer as ArrayBuffer).transfer(0) : undefined;
    if (this.live !== null)
      this.live.write(chunk, () => {
        this.pty.consumed(bytes);
        release?.();
      });
    else this.pty.consumed(bytes);
    for (const listener of this.outputListeners) listener(chunk);
  }

  private async handleExit(exit: PtyExit): Promise<void> {
    // Exit is reported only after the parser has taken the final bytes, so the tail is on screen.
    await this.live?.flushed();
    this.keepFinalState();
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

  /** Swap the live emulator and the big raw ring for the final screen and a raw tail. */
  private keepFinalState(): void {
    const live = this.live;
    if (live === null) return;
    let lines = EXITED_SCROLLBACK_LINES;
    let state = live.serializeScreen(lines);
    while (state.length > EXITED_SCREEN_MAX_CHARS && lines > 0) state = live.serializeScreen((lines >>= 2));
    this.kept = { state, droppedBytes: live.droppedBytes };
    this.live = null;
    live.dispose();
    const tail = new ByteRing(Math.min(EXITED_RAW_TAIL_BYTES, this.raw.capacity));
    tail.append(this.raw.tail(tail.capacity));
    tail.total = this.raw.total;
    this.raw = tail;
  }
}

export function describeExit(exit: ExitInfo | null): string {
  if (exit === null) return "still running";
  return exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${exit.exitCode}`;
}
