/**
 * The headless terminal a session's output is parsed into: @xterm/headless plus what it lacks for
 * driving apps (query replies, kitty keyboard flags, mouse encodings, synchronized-output holds),
 * writing through a queue (parse-queue.ts) so callers can await "everything written so far has been parsed".
 */
import type { IDisposable, Terminal } from "@xterm/headless";
import pkg from "../../package.json" with { type: "json" };
import type { KeyboardModes } from "../keys/types.ts";
import { log } from "../util/log.ts";
import { installKittyHandlers, KittyFlagStacks } from "./kitty-flags.ts";
import { anchorAtCursor, type EchoAnchor, type EchoMask, type EchoSegment, echoMask } from "./echo-cells.ts";
import { activeScreen, keyboardModes, terminalModes } from "./mode-reads.ts";
import { ModeTracker } from "./modes.ts";
import { OscTerminatorTracker } from "./osc-terminator.ts";
import { ParseQueue } from "./parse-queue.ts";
import { collectSoon } from "./parse-scheduler.ts";
import { PromptMarks } from "./prompt-marks.ts";
import { ANSWERED_OSC, installQueryHandlers } from "./queries.ts";
import { ScreenReads } from "./screen-reads.ts";
import { DEFAULT_SCROLLBACK, scrollbackFor } from "./scrollback-budget.ts";
import { serializeState } from "./serialize-state.ts";
import { buildSnapshot, cursorState } from "./snapshot.ts";
import { type Colours, ColourTable } from "./theme.ts";
import type { CursorState, Snapshot, SnapshotOptions, TerminalModes, TerminalTheme } from "./types.ts";
import { loadXterm, privateCore } from "./xterm-load.ts";
import { installLineRecycling } from "./xterm-recycle.ts";

/** How long settledSnapshot waits by default for an open synchronized update to finish. */
export const DEFAULT_MAX_HOLD_MS = 1000;

/** A disposed emulator with at least this much history gets a full collection soon (see collectSoon). */
const COLLECT_AFTER_LINES = 2000;

export interface EmulatorOptions {
  cols: number;
  rows: number;
  scrollback?: number;
  theme?: Partial<TerminalTheme>;
  /** Receives every answer the terminal sends the app (DSR, DA, DECRQM, OSC colours, ...). */
  reply: (data: string) => void;
  /** Version reported to XTVERSION; defaults to this package's version. */
  version?: string;
}

export class Emulator {
  private readonly terminal: Terminal;
  private readonly serializer = new (loadXterm().SerializeAddon)();
  private readonly tracker = new ModeTracker();
  private readonly kitty = new KittyFlagStacks();
  private readonly colours: ColourTable;
  private readonly terminators = new OscTerminatorTracker(ANSWERED_OSC);
  /** OSC 133 shell-integration marks: finished commands and their status. */
  readonly promptMarks = new PromptMarks();
  private readonly disposables: IDisposable[] = [];
  private disposed = false;
  private readonly parseQueue: ParseQueue;
  private readonly requestedScrollback: number;
  private readonly reads: ScreenReads;

  constructor(opts: EmulatorOptions) {
    // logLevel "off": xterm.js logs through console, and nothing may reach stdout (the protocol).
    this.requestedScrollback = opts.scrollback ?? DEFAULT_SCROLLBACK;
    this.terminal = new (loadXterm().Terminal)({
      cols: opts.cols,
      rows: opts.rows,
      scrollback: scrollbackFor(this.requestedScrollback, opts.cols),
      allowProposedApi: true,
      logLevel: "off",
    });
    installLineRecycling(this.terminal);
    this.terminal.loadAddon(this.serializer);
    // xterm.js's synchronous parse: the shared scheduler decides when parsing happens, not xterm's timers.
    const core = privateCore(this.terminal);
    this.reads = new ScreenReads(this.terminal);
    this.parseQueue = new ParseQueue(this.reads.parsing((data) => core.writeSync(data)));
    this.colours = new ColourTable(opts.theme);
    const reply = (data: string) => {
      // Replies are produced inside the parser; a failing PTY write must not derail parsing.
      try {
        opts.reply(data);
      } catch (e) {
        log("emulator reply failed:", String(e));
      }
    };
    this.disposables.push(
      this.terminal.onData(reply),
      ...this.tracker.install(this.terminal, reply, () => {
        this.kitty.reset();
        this.colours.reset();
      }),
      ...installKittyHandlers(this.terminal, this.kitty, reply),
      this.promptMarks.install(this.terminal),
      ...installQueryHandlers(this.terminal, {
        reply,
        colours: this.colours,
        terminators: this.terminators,
        xtversion: `tui-tester(${opts.version ?? pkg.version})`,
      }),
    );
  }

  /**
   * A terminal rebuilt, synchronously, from a serializeScreen() stream: how an exited session's kept
   * final screen is read without keeping its full emulator alive.
   */
  static restore(state: string, opts: EmulatorOptions): Emulator {
    const emulator = new Emulator(opts);
    // Parsed now, not in a later turn: readers of an exited session ask for text() without awaiting a flush.
    emulator.write(state);
    emulator.parseQueue.parseSlice(Number.POSITIVE_INFINITY);
    return emulator;
  }

  get cols(): number {
    return this.terminal.cols;
  }

  get rows(): number {
    return this.terminal.rows;
  }

  /**
   * Queue bytes for the parser. Parsing is asynchronous; see flushed() and onParsed(). `done` runs once
   * the chunk has been parsed, or at once if it was dropped, so flow control is always released.
   * A byte chunk is kept, not copied (a copy per chunk cost a tenth of the parse time), until it is
   * parsed: the caller hands it over and must not change it.
   */
  write(data: string | Uint8Array, done?: () => void): void {
    // Scanned once queued (dropped bytes are never parsed), and before the scheduler's turn parses it.
    if (this.parseQueue.write(data, done)) this.terminators.scan(data);
  }

  /**
   * Throw away everything queued and not yet parsed, counted in droppedBytes: what a terminal shows
   * when it is closed under a flood. Flush waiters and write callbacks run as if parsed.
   */
  discardQueued(): void {
    this.parseQueue.discardQueued();
  }

  /** Bytes never parsed because the parser's backlog was over MAX_PENDING_BYTES, or xterm refused them. */
  get droppedBytes(): number {
    return this.parseQueue.droppedBytes;
  }

  /** Bytes written and not yet parsed. */
  get pendingBytes(): number {
    return this.parseQueue.pendingBytes;
  }

  /** Resolves once everything written before this call has been parsed (later writes do not delay it). */
  flushed(): Promise<void> {
    return this.parseQueue.flushed();
  }

  /** Called after each written chunk has been parsed. Returns the unsubscribe. */
  onParsed(listener: () => void): () => void {
    return this.parseQueue.onParsed(listener);
  }

  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    // The history limit first: widening trims old lines before every line is widened.
    this.terminal.options.scrollback = scrollbackFor(this.requestedScrollback, cols);
    this.terminal.resize(cols, rows);
    this.reads.changed();
  }

  /** The default colours and palette as the app has left them (OSC 4/10/11/12 sets and resets, RIS). */
  liveColours(): Colours {
    return this.colours.live();
  }

  /** Lines of history kept at the current width (the configured scrollback, or less on a wide terminal). */
  get scrollbackLimit(): number {
    return this.terminal.options.scrollback ?? this.requestedScrollback;
  }

  /** Whether the app has a synchronized update (DEC mode 2026) open right now. */
  get syncHeld(): boolean {
    return this.tracker.syncHeldSince !== null;
  }

  /** performance.now() at which the open synchronized update began, or null. */
  get syncHeldSince(): number | null {
    return this.tracker.syncHeldSince;
  }

  /**
   * Called when a synchronized update ends (`CSI ? 2026 l`, or a reset). It runs inside the parser,
   * right after the completed frame: a snapshot taken synchronously in the listener shows exactly it.
   */
  onSyncRelease(listener: () => void): () => void {
    return this.tracker.onSyncRelease(listener);
  }

  modes(): TerminalModes {
    return terminalModes(this.terminal, this.tracker, this.kitty);
  }

  /** The modes that change what bytes a key press sends. */
  keyboardModes(): KeyboardModes {
    return keyboardModes(this.terminal, this.kitty);
  }

  /** The screen as parsed so far (call after flushed()). During a synchronized update it may be half-drawn. */
  snapshot(opts?: SnapshotOptions): Snapshot {
    return buildSnapshot(this.terminal, this.serializer, this.tracker.cursorVisible, opts ?? {}, this.reads);
  }

  /**
   * A snapshot of a complete frame: flushes, and if the app holds a synchronized update open,
   * waits for it to end (snapshotting the finished frame at that instant) or until the hold
   * has lasted `maxHoldMs`, then snapshots whatever is there.
   */
  async settledSnapshot(opts?: SnapshotOptions, maxHoldMs = DEFAULT_MAX_HOLD_MS): Promise<Snapshot> {
    await this.flushed();
    const since = this.tracker.syncHeldSince;
    const remaining = since === null ? 0 : since + maxHoldMs - performance.now();
    if (remaining <= 0 || this.disposed) return this.snapshot(opts);
    return new Promise<Snapshot>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        off();
        resolve(this.snapshot(opts));
      };
      const off = this.tracker.onSyncRelease(done);
      const timer = setTimeout(done, remaining);
    });
  }

  /** The visible rows and where they sit: `top` is row 0's buffer line, so a row keeps its number while the
   *  main screen scrolls (until the scrollback is full and trims). */
  viewport(): { top: number; screen: "main" | "alternate"; lines: string[]; cursorRow: number } {
    return {
      top: this.terminal.buffer.active.viewportY,
      screen: activeScreen(this.terminal),
      lines: this.reads.viewportLines(),
      cursorRow: this.cursor().row,
    };
  }

  /** A place at the cursor that follows its line as the screen scrolls (echo-cells.ts); null once disposed. */
  anchorAtCursor(): EchoAnchor | null {
    return this.disposed ? null : anchorAtCursor(this.terminal);
  }

  /** The visible cells that still show the echo of typed text (echo-cells.ts). */
  echoMask(segments: EchoSegment[]): EchoMask {
    return this.disposed ? new Map() : echoMask(this.terminal, segments);
  }

  /** Visible rows joined with "\n", trailing blanks trimmed per row. */
  text(): string {
    return this.reads.viewportLines().join("\n");
  }

  cursor(): CursorState {
    return cursorState(this.terminal, this.tracker.cursorVisible);
  }

  /** The cursor shape the app chose with DECSCUSR (CSI Ps SP q), read from xterm.js's private modes; default block. */
  cursorShape(): "block" | "underline" | "bar" {
    const style = privateCore(this.terminal).coreService?.decPrivateModes?.cursorStyle;
    return style === "underline" || style === "bar" ? style : "block";
  }

  /** The whole state as ANSI (serialize-state.ts); write it into a cleared terminal of the same size. */
  serializeScreen(scrollbackLines?: number): string {
    return serializeState(this.serializer, {
      scrollbackLines,
      cursorVisible: this.tracker.cursorVisible,
      mouseEncoding: this.tracker.mouseEncoding,
    });
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.tracker.endSync(); // settledSnapshot waiters take their snapshot before the terminal goes
    this.parseQueue.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
    const lines = this.terminal.buffer.normal.length;
    this.terminal.dispose();
    if (lines >= COLLECT_AFTER_LINES) collectSoon();
  }
}
