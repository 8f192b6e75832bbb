/**
 * A Terminal is one program in a PTY, driven from TypeScript: the same engine the MCP tools use
 * (the same input actions, before/after/diff and settle facts, waits and readers), with no MCP hop.
 * Inputs run one at a time in call order, as the tools' do; reads and waits run at once.
 */
import { TuiError } from "../errors.ts";
import { parseKeys } from "../keys/index.ts";
import { startRecording, stopRecording, type RecordingStats } from "../record/recorder.ts";
import { screenshot, type Screenshot } from "../render/screenshot.ts";
import { freshView, toView, type ScreenView } from "../session/observe.ts";
import { observeInput } from "../session/observe-input.ts";
import type { StopResult } from "../session/registry.ts";
import { describeExit, type ExitInfo } from "../session/exit-info.ts";
import type { Session } from "../session/session.ts";
import { waitForIdle, waitForText, type WaitIdleResult } from "../session/wait.ts";
import { exitTimeoutError } from "../session/wait-miss.ts";
import { MAX_COLS, MAX_ROWS } from "../term/size.ts";
import type { CellsResult, CellRegion, ScrollbackInfo, TerminalModes } from "../term/types.ts";
import {
  checkPayload,
  describeKeys,
  describeText,
  describeTyping,
  sendKeys,
  sendSecretText,
  sendText,
  typeChars,
} from "./keyboard.ts";
import { observeOptions, type InputOptions, type InputResult, type Key, type TextMatch } from "./input-options.ts";
import type { Engine } from "./launch.ts";
import { describePaste, pasteText, planMouse, type MouseArgs } from "./pointer.ts";
import {
  toWaitOptions,
  waitFailure,
  type AnyOfPatterns,
  type TextPattern,
  type WaitForOptions,
} from "./wait-options.ts";

export type { InputOptions, InputResult, Key, TextMatch };

export class Terminal implements AsyncDisposable {
  #closed: Promise<StopResult> | undefined;
  /** Why input is refused after an automatic close (see cleanup.ts). */
  closedBecause: string | undefined;

  constructor(
    /** The engine's session: an escape hatch, not a stable API. */
    readonly session: Session,
    private readonly engine: Engine,
  ) {}

  get id(): string {
    return this.session.id;
  }

  get pid(): number {
    return this.session.pid;
  }

  get cols(): number {
    return this.session.cols;
  }

  get rows(): number {
    return this.session.rows;
  }

  get running(): boolean {
    return this.session.running;
  }

  /** Key chords, encoded from the app's live modes (application cursor keys, keypad, kitty keyboard). */
  press(keys: Key | Key[], options: InputOptions = {}): Promise<InputResult> {
    const specs = parseKeys(keys);
    return this.input(options, () => sendKeys(this.session, specs), describeKeys);
  }

  /** Text as typed: at once, or a character at a time with `cps` (characters per second). */
  type(text: string, options: InputOptions & { cps?: number; secret?: boolean } = {}): Promise<InputResult> {
    checkPayload("type", "text", Buffer.byteLength(text));
    const { cps } = options;
    if (options.secret) {
      if (cps !== undefined)
        throw new TuiError("INVALID_ARGUMENT", "A secret is sent at once; cps does not apply.", "Leave out cps.");
      return this.input(options, () => sendSecretText(this.session, text), describeText);
    }
    if (cps === undefined) return this.input(options, () => sendText(this.session, text), describeText);
    if (!(cps > 0))
      throw new TuiError(
        "INVALID_ARGUMENT",
        `cps ${cps} is not a positive number.`,
        "Pass characters per second, e.g. { cps: 40 }, or leave it out to send at once.",
      );
    return this.input(options, () => typeChars(this.session, text, cps), describeTyping);
  }

  /** A paste: bracketed (ESC[200~ ... ESC[201~) when the app enabled mode 2004, else plain. */
  paste(text: string, options: InputOptions = {}): Promise<InputResult> {
    checkPayload("paste", "text", Buffer.byteLength(text));
    return this.input(options, () => pasteText(this.session, text), describePaste);
  }

  /** A mouse event at a cell or at a text's first match, in the app's tracking mode (MOUSE_NOT_ENABLED if none). */
  mouse(args: MouseArgs, options: InputOptions = {}): Promise<InputResult> {
    return this.serialized(async () => {
      const { send, describe } = await planMouse(this.session, args);
      return this.observed(options, send, describe);
    });
  }

  /** Resize the PTY and the emulator (the app gets SIGWINCH); the screen block spans the re-layout. */
  resize(cols: number, rows: number, options: InputOptions = {}): Promise<InputResult> {
    for (const [name, value, max] of [
      ["cols", cols, MAX_COLS],
      ["rows", rows, MAX_ROWS],
    ] as const) {
      if (!Number.isInteger(value) || value < 1 || value > max)
        throw new TuiError(
          "INVALID_ARGUMENT",
          `${name} ${value} is not an integer from 1 to ${max}.`,
          "Pass the new size in cells.",
        );
    }
    const from = { cols: this.cols, rows: this.rows };
    const resized = () => {
      this.session.resize(cols, rows);
      return { from, cols, rows, bytesSent: 0 };
    };
    return this.input(options, resized, () => `Resized ${from.cols}x${from.rows} -> ${cols}x${rows}`);
  }

  /** Wait until the pattern is on the screen (or, with raw, in the output); throws WAIT_TIMEOUT with the screen. */
  async waitForText(pattern: TextPattern | AnyOfPatterns, options: WaitForOptions = {}): Promise<TextMatch> {
    const wait = toWaitOptions(pattern, options);
    const { snapshot, ...result } = await waitForText(this.session, wait);
    const screen = toView(snapshot);
    if (!result.matched) throw waitFailure(wait, result, screen.text);
    const which = result.matchedIndex !== undefined ? { index: result.matchedIndex } : {};
    return { match: result.match!, ...which, elapsedMs: result.elapsedMs, screen };
  }

  /**
   * Wait until the program waits for input again (mode "idle", the default, judged from what its
   * processes are doing) or has written nothing for idleMs (mode "quiet"; default 500 ms).
   * Resolves with `idle: false` when timeoutMs (default 5000) passes first.
   */
  waitForIdle(options: { idleMs?: number; timeoutMs?: number; mode?: "idle" | "quiet" } = {}): Promise<WaitIdleResult> {
    return waitForIdle(this.session, {
      idleMs: options.idleMs ?? 500,
      timeoutMs: options.timeoutMs ?? 5000,
      mode: options.mode ?? "idle",
    });
  }

  /** Wait for the program to exit; throws WAIT_TIMEOUT (with the screen) if it is still running after timeoutMs. */
  async waitForExit(options: { timeoutMs?: number } = {}): Promise<ExitInfo> {
    const timeoutMs = options.timeoutMs ?? 5000;
    const timeout = Bun.sleep(timeoutMs).then(() => null);
    const exit = await Promise.race([this.session.whenExited(), timeout]);
    if (exit !== null) return exit;
    const { text } = await this.screen();
    throw exitTimeoutError(timeoutMs, text);
  }

  /** The screen now (after the parser caught up and any synchronized update finished). */
  screen(): Promise<ScreenView> {
    return freshView(this.session);
  }

  /** Cells as runs of equal colours and attributes per row, for a region (default the whole screen). */
  async cells(region: Partial<CellRegion> = {}): Promise<CellsResult> {
    const snap = await this.session.emulator.settledSnapshot({ format: "cells", region });
    return snap.cells!;
  }

  /** The whole buffer: history above the screen and the screen (newest maxLines kept). */
  async scrollback(options: { maxLines?: number } = {}): Promise<ScrollbackInfo> {
    const snap = await this.session.emulator.settledSnapshot({
      format: "text",
      includeScrollback: true,
      maxScrollbackLines: options.maxLines,
    });
    return snap.scrollback!;
  }

  /** Raw output the program wrote, escapes included (the newest bytes the ring buffer kept). */
  raw(): string {
    return new TextDecoder().decode(this.session.raw.tail());
  }

  /** A PNG (default) or SVG picture of the screen, written to path (default: a new file in the output directory). */
  screenshot(options: { path?: string; format?: "png" | "svg"; scale?: number } = {}): Promise<Screenshot> {
    return screenshot(this.session, {
      format: options.format ?? "png",
      path: options.path,
      dir: this.engine.output.path,
      cwd: process.cwd(),
      scale: options.scale ?? 1,
    });
  }

  /** Record to an asciicast v2 file, written as output arrives. */
  startRecording(path?: string, options: { includeInput?: boolean } = {}): RecordingStats {
    const dir = this.engine.config.recordDir ?? this.engine.output.path;
    return startRecording(this.session, { path, dir, cwd: process.cwd(), includeInput: options.includeInput });
  }

  stopRecording(): RecordingStats {
    return stopRecording(this.session);
  }

  /** The modes the app switched on: cursor keys, keypad, bracketed paste, mouse tracking, alternate screen... */
  modes(): TerminalModes {
    return this.session.modes();
  }

  /** How the program ended, or null while it runs. */
  exitInfo(): ExitInfo | null {
    return this.session.exit;
  }

  /**
   * Stop the program as closing a terminal window does (signal and SIGHUP to its process group,
   * SIGKILL after graceMs) and release the PTY. Safe to call more than once.
   */
  close(options: { signal?: NodeJS.Signals; graceMs?: number } = {}): Promise<StopResult> {
    this.#closed ??= this.engine.sessions
      .stop(this.id, options.signal, options.graceMs)
      .finally(() => this.session.dispose());
    return this.#closed;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  toString(): string {
    return `Terminal ${this.id} (${this.session.config.command}, ${describeExit(this.session.exit)})`;
  }

  private input<R extends { bytesSent: number }>(
    options: InputOptions,
    action: () => R | Promise<R>,
    describe: (r: R) => string,
  ): Promise<InputResult> {
    return this.serialized(() => this.observed(options, action, describe));
  }

  /** One input at a time, in call order, only while the program runs (as the tools' input queue). */
  private serialized<T>(task: () => Promise<T>): Promise<T> {
    return this.session.serialize(async () => {
      if (this.closedBecause && !this.session.running)
        throw new TuiError("SESSION_EXITED", this.closedBecause, "Launch it inside the test that uses it.");
      this.session.assertRunning();
      return task();
    });
  }

  private async observed<R extends { bytesSent: number }>(
    options: InputOptions,
    action: () => R | Promise<R>,
    describe: (r: R) => string,
  ): Promise<InputResult> {
    const { summary, data } = await observeInput(this.session, observeOptions(options), action, describe);
    return { summary, ...data };
  }
}
