/** A Session is one child process in a PTY, its emulator, its raw output ring, and its lifecycle. */
import { bytesRead, descendants, SlaveWriter, type PtyBackend, type PtyExit, type PtyProcess } from "../pty/index.ts";
import type { Emulator } from "../term/emulator.ts";
import type { TerminalModes } from "../term/types.ts";
import { Listeners } from "../util/listeners.ts";
import type { ByteRing } from "../util/ring-buffer.ts";
import type { ScreenBaseline } from "./baseline.ts";
import { EchoTracker } from "./echo.ts";
import { sessionExitedError, type ExitInfo } from "./exit-info.ts";
import { InputHistory } from "./history.ts";
import { InputCap } from "./input-cap.ts";
import { InputStarts, type InputSource } from "./input-starts.ts";
import type { ReadyOracle } from "./ready/oracle.ts";
import { OutputFence } from "./output-fence.ts";
import { launchOf, type SessionConfig, type SessionState } from "./session-config.ts";
import { SessionTerminal } from "./session-terminal.ts";

const utf8 = new TextEncoder();

export type { InputSource } from "./input-starts.ts";
export type { SessionConfig, SessionState } from "./session-config.ts";

/**
 * What layers above session/ keep of a session (its recording, its viewer), each field declared by the
 * module that owns it (`declare module "../session/session.ts" { interface SessionExtras { ... } }`): a
 * session's state lives on the session, and this room imports none of theirs.
 */
// biome-ignore lint/suspicious/noEmptyInterface: the owners of each field add it by declaration merging
export interface SessionExtras {}

export class Session {
  readonly id: string;
  readonly name: string | undefined;
  readonly createdAt = Date.now();
  state: SessionState = "starting";
  exit: ExitInfo | null = null;
  /** performance.now() of the latest output chunk (or of spawn). */
  lastOutputAt = performance.now();
  /** performance.now() of the latest input written (0: none yet). */
  lastInputAt = 0;
  cols: number;
  rows: number;
  private readonly pty: PtyProcess;
  private readonly terminal: SessionTerminal;
  private readonly inputCap: InputCap;
  private readonly outputListeners = new Listeners<[chunk: Uint8Array]>();
  private readonly exitListeners = new Listeners<[exit: ExitInfo]>();
  private readonly resizeListeners = new Listeners<[size: { cols: number; rows: number }, from: InputSource]>();
  private readonly inputStarts = new InputStarts();
  private readonly inputListeners = new Listeners<[bytes: Uint8Array, from: InputSource, secret: boolean]>();
  private readonly replyListeners = new Listeners<[bytes: number]>();
  /** Checked before agent input or a resize; the web viewer's takeover lease throws HUMAN_IN_CONTROL from it. */
  inputGate: (() => void) | undefined;
  private readonly exited = Promise.withResolvers<ExitInfo>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The first signal delivered through signal() (stop_session, close()): the exit was then not the program's own. */
  signalled: NodeJS.Signals | null = null;
  /** Every input, wait and check in order, for save_test (bounded: see history.ts). */
  readonly history: InputHistory;
  /** Where the recent typing was echoed, which waits do not take for output (echo.ts). */
  readonly echo: EchoTracker;
  /** How this session settles and reads at rest (ready/oracle.ts's readyOracle makes it on first use). */
  readyOracle: ReadyOracle | undefined;
  /** What layers above this one keep of the session (SessionExtras). */
  readonly extras: Partial<SessionExtras> = {};
  /** Marks in the output stream that say all the program wrote before them has arrived (output-fence.ts); cut from it first. */
  readonly fence: OutputFence;

  /** Spawn the child in a PTY of the backend; resolves once it runs. */
  static async start(config: SessionConfig, backend: PtyBackend): Promise<Session> {
    const pty = await backend.spawn({
      file: config.file,
      args: config.args,
      cwd: config.cwd,
      env: config.env,
      cols: config.cols,
      rows: config.rows,
    });
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
    this.terminal = new SessionTerminal(
      config,
      () => ({ cols: this.cols, rows: this.rows }),
      (data) => this.replyToApp(data),
    );
    this.pty = pty;
    this.fence = new OutputFence(new SlaveWriter(() => pty.pid));
    this.inputCap = new InputCap(this.id, () => bytesRead([this.pid, ...descendants(this.pid)]));
    const consumed = (bytes: number) => pty.consumed(bytes);
    this.pty.onData((chunk) => this.fence.filter(chunk, this.deliver, consumed));
    this.pty.onExit((exit) => void this.handleExit(exit));
    this.state = "running";
    this.echo = new EchoTracker(this);
    this.history = new InputHistory(this, launchOf(config));
  }

  /** The session's terminal; after exit, rebuilt from the kept final screen (session-terminal.ts). */
  get emulator(): Emulator {
    return this.terminal.emulator;
  }

  /** Output ring; on exit it shrinks to its newest bytes (its counts are kept). */
  get raw(): ByteRing {
    return this.terminal.raw;
  }

  /** Bytes an exited session still holds: its kept screen (UTF-16) and raw tail; null while running. */
  get keptBytes(): number | null {
    return this.terminal.keptBytes;
  }

  /** Output bytes that never reached the screen because a parser limit forced a drop (normally 0). */
  get droppedBytes(): number {
    return this.terminal.droppedBytes;
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
    return this.outputListeners.add(listener);
  }

  /** An input begins (the first write or resize of one input call): the screen just before it. */
  onInputStart(listener: (baseline: ScreenBaseline, from: InputSource) => void): () => void {
    return this.inputStarts.onStart(listener);
  }

  /** The screen just before the latest input began: what waitFor { after: "input" } compares with. */
  get lastInput(): ScreenBaseline | null {
    return this.inputStarts.latest;
  }

  /**
   * Run one input call whose bytes go out in several writes (type_text, hold_key, a mouse click), so
   * "the input" of waitFor { after: "input" } is the whole call, measured from before its first write.
   */
  asOneInput<T>(action: () => T | Promise<T>): Promise<T> {
    return this.inputStarts.asOne(action);
  }

  onResize(listener: (size: { cols: number; rows: number }, from: InputSource) => void): () => void {
    return this.resizeListeners.add(listener);
  }

  /** Every write to the program; `secret` marks text sent with secret: true (recordings leave it out). */
  onInput(listener: (bytes: Uint8Array, from: InputSource, secret: boolean) => void): () => void {
    return this.inputListeners.add(listener);
  }

  /** The emulator is about to answer one of the program's terminal queries (DSR, DA, OSC colours...). */
  onReply(listener: (bytes: number) => void): () => void {
    return this.replyListeners.add(listener);
  }

  onExit(listener: (exit: ExitInfo) => void): () => void {
    return this.exitListeners.add(listener);
  }

  /** Throws a SESSION_EXITED error carrying the exit info when the process is gone. */
  assertRunning(): void {
    if (this.state !== "running") throw sessionExitedError(this.id, this.exit);
  }

  /**
   * Send input. Input to a program that does not read piles up (in the PTY layer's buffer), so past
   * INPUT_CAP_BYTES (input-cap.ts) since the program was last seen reading, further input is refused.
   * Agent input is refused while a human holds control (the web viewer's input gate).
   */
  write(bytes: Uint8Array, from: InputSource = "agent", options: { secret?: boolean } = {}): void {
    this.assertRunning();
    if (from === "agent") this.inputGate?.();
    this.inputCap.check(bytes.length);
    this.inputBegins(from);
    this.pty.write(bytes);
    this.lastInputAt = performance.now();
    this.inputCap.wrote(bytes.length);
    this.inputListeners.emit(bytes, from, options.secret === true);
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
    this.resizeListeners.emit({ cols, rows }, from);
  }

  /** Keep the screen as it is before this input (once per asOneInput group), then tell the listeners. */
  private inputBegins(from: InputSource): void {
    this.inputStarts.begin(from, () => ({ ...this.emulator.viewport(), rawTotal: this.raw.total }));
  }

  /** Deliver a signal to the process group. False when the process is already gone. */
  signal(signal: NodeJS.Signals): boolean {
    const delivered = this.state === "running" && this.pty.signal(signal);
    if (delivered) this.signalled ??= signal;
    return delivered;
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
    this.terminal.discardQueued();
  }

  /** Release the PTY and every terminal. The process must have exited or been killed first. */
  dispose(): void {
    this.pty.close();
    this.terminal.dispose();
  }

  private replyToApp(data: string): void {
    if (this.state !== "running") return;
    const bytes = utf8.encode(data);
    // Told before the write: a listener counting what the program has read must count from before it.
    this.replyListeners.emit(bytes.length);
    this.pty.write(bytes);
  }

  private readonly deliver = (chunk: Uint8Array): void => {
    this.lastOutputAt = performance.now();
    const bytes = chunk.length;
    // Reporting parsed bytes back is what lets the PTY layer read on (flow control, src/pty/flow.ts).
    // A chunk no listener is handed, owning its whole buffer, can be freed once parsed.
    const owned =
      this.outputListeners.size === 0 &&
      chunk.byteOffset === 0 &&
      chunk.byteLength === chunk.buffer.byteLength &&
      chunk.buffer instanceof ArrayBuffer;
    this.terminal.output(chunk, () => this.pty.consumed(bytes), owned);
    this.outputListeners.emit(chunk);
  };

  private async handleExit(exit: PtyExit): Promise<void> {
    // A fence's possible start held back at the very end was the program's after all.
    const held = this.fence.release();
    if (held !== undefined) this.deliver(held);
    // Exit is reported only after the parser has taken the final bytes, so the tail is on screen.
    await this.terminal.flushed();
    this.terminal.keepFinal();
    this.state = "exited";
    this.exit = {
      exitCode: exit.exitCode,
      signal: exit.signal,
      exitedAt: new Date().toISOString(),
      runtimeMs: Date.now() - this.createdAt,
    };
    this.exitListeners.emit(this.exit);
    this.exited.resolve(this.exit);
    this.pty.close();
  }
}
