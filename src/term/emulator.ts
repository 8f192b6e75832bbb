/**
 * The headless terminal a session's output is parsed into: @xterm/headless plus what it lacks for
 * driving apps (query replies, kitty keyboard flags, mouse encodings, synchronized-output holds),
 * with write bookkeeping so callers can await "everything written so far has been parsed".
 */
import type { IDisposable, Terminal } from "@xterm/headless";
import type { SerializeAddon } from "@xterm/addon-serialize";
import pkg from "../../package.json" with { type: "json" };
import type { KeyboardModes } from "../keys/types.ts";
import { log } from "../util/log.ts";
import { collectSoon, leaveParsing, queueForParsing } from "./parse-scheduler.ts";
import { installKittyHandlers, KittyFlagStacks, type Screen } from "./kitty-flags.ts";
import { PromptMarks } from "./prompt-marks.ts";
import { ModeTracker } from "./modes.ts";
import { OscTerminatorTracker } from "./osc-terminator.ts";
import { ANSWERED_OSC, installQueryHandlers } from "./queries.ts";
import { buildSnapshot, cursorState, viewportLines } from "./snapshot.ts";
import { ColourTable, type Colours } from "./theme.ts";
import { installLineRecycling } from "./xterm-recycle.ts";
import type { CursorState, MouseEncoding, Snapshot, SnapshotOptions, TerminalModes, TerminalTheme } from "./types.ts";

export const DEFAULT_SCROLLBACK = 10_000;
/** How long settledSnapshot waits by default for an open synchronized update to finish. */
export const DEFAULT_MAX_HOLD_MS = 1000;
/**
 * Bytes queued and not parsed, beyond which a write is dropped (and counted) rather than queued.
 * With bun-terminal the PTY flow control (src/pty/flow.ts) keeps the backlog near 1 MiB, so this only
 * catches a caller that writes without waiting, and bun-pty, which cannot hold its child back
 * (src/pty/bun-pty.ts): 32 MiB lets a finite burst such as `seq 1 2000000` (17 MB) through whole.
 */
export const MAX_PENDING_BYTES = 32 << 20;

/**
 * History is bounded in bytes as well as lines: xterm.js keeps 12 bytes for every cell of every line
 * (BufferLine: 3 × Uint32 per cell), so 10,000 lines at 1000 columns would hold 120 MB per session.
 * The configured scrollback applies up to this budget; a terminal wider than 279 columns keeps fewer lines.
 */
export const MAX_HISTORY_BYTES = 32 << 20;
const BYTES_PER_CELL = 12;

/** The scrollback an emulator `cols` wide keeps when `requested` lines were asked for. */
export function scrollbackFor(requested: number, cols: number): number {
  return Math.min(requested, Math.floor(MAX_HISTORY_BYTES / (Math.max(1, cols) * BYTES_PER_CELL)));
}

/**
 * SerializeAddon restores the mouse tracking mode but not its encoding; without this a viewer's terminal
 * would report clicks in X10 form to an app that asked for SGR (xterm ctlseqs, "Mouse Tracking").
 */
const MOUSE_ENCODING_MODE: Record<MouseEncoding, string> = { default: "", utf8: "\x1b[?1005h", sgr: "\x1b[?1006h", "sgr-pixels": "\x1b[?1016h", urxvt: "\x1b[?1015h" };

/** A disposed emulator with at least this much history gets a full collection soon (see collectSoon). */
const COLLECT_AFTER_LINES = 2000;

interface QueuedChunk {
  data: string | Uint8Array;
  offset: number;
  seq: number;
  done: (() => void) | undefined;
}

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

/**
 * xterm.js is loaded on the first session, not at start-up: evaluating it is a large share of the
 * server's spawn-to-initialize time (issue 14), and a server may never start a session.
 */
let xterm: { Terminal: typeof Terminal; SerializeAddon: typeof SerializeAddon } | undefined;
function loadXterm(): NonNullable<typeof xterm> {
  return (xterm ??= { Terminal: require("@xterm/headless").Terminal, SerializeAddon: require("@xterm/addon-serialize").SerializeAddon });
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
  private readonly parsedListeners = new Set<() => void>();
  private readonly flushWaiters: { seq: number; resolve: () => void }[] = [];
  private written = 0;
  private parsed = 0;
  private disposed = false;
  private queuedBytes = 0;
  private readonly queue: QueuedChunk[] = [];
  /** xterm.js's synchronous parse: the scheduler above decides when parsing happens, not xterm's timers. */
  private readonly core: { writeSync(data: string | Uint8Array): void };
  /** Bytes never parsed because the parser's backlog was over MAX_PENDING_BYTES, or xterm refused them. */
  droppedBytes = 0;
  private readonly requestedScrollback: number;

  constructor(opts: EmulatorOptions) {
    // logLevel "off": xterm.js logs through console, and nothing may reach stdout (the protocol).
    this.requestedScrollback = opts.scrollback ?? DEFAULT_SCROLLBACK;
    this.terminal = new (loadXterm().Terminal)({ cols: opts.cols, rows: opts.rows, scrollback: scrollbackFor(this.requestedScrollback, opts.cols), allowProposedApi: true, logLevel: "off" });
    installLineRecycling(this.terminal);
    this.terminal.loadAddon(this.serializer);
    this.core = (this.terminal as unknown as { _core: Emulator["core"] })._core;
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
      ...installQueryHandlers(this.terminal, { reply, colours: this.colours, terminators: this.terminators, xtversion: `tui-tester(${opts.version ?? pkg.version})` }),
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
    emulator.parseSlice(Number.POSITIVE_INFINITY);
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
    const size = data.length;
    if (this.disposed) return done?.();
    if (this.queuedBytes + size > MAX_PENDING_BYTES) return this.drop(size, "parser backlog over the limit", done);
    this.terminators.scan(data);
    const seq = ++this.written;
    this.queue.push({ data, offset: 0, seq, done });
    this.queuedBytes += size;
    queueForParsing(this, this.queuedBytes);
  }

  /** Parse up to `budget` queued bytes now (the scheduler's turn). True while more is queued. */
  parseSlice(budget: number): boolean {
    while (budget > 0 && this.queue.length > 0 && !this.disposed) {
      const chunk = this.queue[0]!;
      const end = Math.min(chunk.data.length, chunk.offset + budget);
      const piece = chunk.offset === 0 && end === chunk.data.length ? chunk.data : typeof chunk.data === "string" ? chunk.data.slice(chunk.offset, end) : chunk.data.subarray(chunk.offset, end);
      budget -= end - chunk.offset;
      this.queuedBytes -= end - chunk.offset;
      chunk.offset = end;
      try {
        this.core.writeSync(piece);
      } finally {
        if (chunk.offset === chunk.data.length) {
          this.queue.shift();
          this.chunkParsed(chunk.seq);
          chunk.done?.();
        }
      }
    }
    return this.queue.length > 0 && !this.disposed;
  }

  /**
   * Throw away everything queued and not yet parsed, counted in droppedBytes: what a terminal shows
   * when it is closed under a flood. Flush waiters and write callbacks run as if parsed.
   */
  discardQueued(): void {
    if (this.queuedBytes === 0) return;
    this.droppedBytes += this.queuedBytes;
    this.queuedBytes = 0;
    leaveParsing(this);
    const chunks = this.queue.splice(0);
    if (chunks.length > 0) this.chunkParsed(chunks[chunks.length - 1]!.seq);
    for (const chunk of chunks) chunk.done?.();
  }

  /** Bytes written and not yet parsed. */
  get pendingBytes(): number {
    return this.queuedBytes;
  }

  /** Resolves once everything written before this call has been parsed (later writes do not delay it). */
  flushed(): Promise<void> {
    if (this.parsed >= this.written || this.disposed) return Promise.resolve();
    const { promise, resolve } = Promise.withResolvers<void>();
    this.flushWaiters.push({ seq: this.written, resolve });
    return promise;
  }

  /** Called after each written chunk has been parsed. Returns the unsubscribe. */
  onParsed(listener: () => void): () => void {
    this.parsedListeners.add(listener);
    return () => this.parsedListeners.delete(listener);
  }

  resize(cols: number, rows: number): void {
    if (this.disposed) return;
    // The history limit first: widening trims old lines before every line is widened.
    this.terminal.options.scrollback = scrollbackFor(this.requestedScrollback, cols);
    this.terminal.resize(cols, rows);
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
    const m = this.terminal.modes;
    return {
      applicationCursorKeys: m.applicationCursorKeysMode,
      applicationKeypad: m.applicationKeypadMode,
      bracketedPaste: m.bracketedPasteMode,
      mouseTracking: m.mouseTrackingMode,
      mouseEncoding: this.tracker.mouseEncoding,
      kittyKeyboardFlags: this.kitty.current(this.screen()),
      altScreen: this.screen() === "alternate",
      synchronizedOutput: this.syncHeld,
      cursorVisible: this.tracker.cursorVisible,
      focusEvents: m.sendFocusMode,
    };
  }

  /** The modes that change what bytes a key press sends. */
  keyboardModes(): KeyboardModes {
    const m = this.terminal.modes;
    return { applicationCursorKeys: m.applicationCursorKeysMode, applicationKeypad: m.applicationKeypadMode, kittyFlags: this.kitty.current(this.screen()) };
  }

  /** The screen as parsed so far (call after flushed()). During a synchronized update it may be half-drawn. */
  snapshot(opts?: SnapshotOptions): Snapshot {
    return buildSnapshot(this.terminal, this.serializer, this.tracker.cursorVisible, opts);
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

  /**
   * The visible rows with where they sit in the buffer: `top` is the buffer line of row 0, so a row
   * keeps its number while the main screen scrolls (until the scrollback is full and trims).
   */
  viewport(): { top: number; screen: "main" | "alternate"; lines: string[]; cursorRow: number } {
    return { top: this.terminal.buffer.active.viewportY, screen: this.screen(), lines: viewportLines(this.terminal), cursorRow: this.cursor().row };
  }

  /** Visible rows joined with "\n", trailing blanks trimmed per row. */
  text(): string {
    return viewportLines(this.terminal).join("\n");
  }

  cursor(): CursorState {
    return cursorState(this.terminal, this.tracker.cursorVisible);
  }

  /** The cursor shape the app chose with DECSCUSR (CSI Ps SP q), read from xterm.js's private modes; default block. */
  cursorShape(): "block" | "underline" | "bar" {
    const core = this.terminal as unknown as { _core?: { coreService?: { decPrivateModes?: { cursorStyle?: string } } } };
    const style = core._core?.coreService?.decPrivateModes?.cursorStyle;
    return style === "underline" || style === "bar" ? style : "block";
  }

  /**
   * The whole terminal state as one ANSI stream (scrollback, normal and alternate screen, cursor,
   * modes) for repainting a viewer or restoring an exited session; write it into a cleared terminal of
   * the same size. `scrollbackLines` caps the history sent with it. SerializeAddon leaves out cursor
   * visibility and the mouse encoding, so those are appended.
   */
  serializeScreen(scrollbackLines?: number): string {
    const options = scrollbackLines === undefined ? undefined : { scrollback: scrollbackLines };
    return this.serializer.serialize(options) + (this.tracker.cursorVisible ? "" : "\x1b[?25l") + MOUSE_ENCODING_MODE[this.tracker.mouseEncoding];
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.tracker.endSync(); // settledSnapshot waiters take their snapshot before the terminal goes
    for (const waiter of this.flushWaiters.splice(0)) waiter.resolve();
    leaveParsing(this);
    this.queuedBytes = 0;
    for (const chunk of this.queue.splice(0)) chunk.done?.();
    this.parsedListeners.clear();
    for (const d of this.disposables.splice(0)) d.dispose();
    const lines = this.terminal.buffer.normal.length;
    this.terminal.dispose();
    if (lines >= COLLECT_AFTER_LINES) collectSoon();
  }

  private drop(size: number, why: string, done: (() => void) | undefined): void {
    if (this.droppedBytes === 0) log(`emulator dropped output: ${why}`);
    this.droppedBytes += size;
    done?.();
  }

  private screen(): Screen {
    return this.terminal.buffer.active.type === "alternate" ? "alternate" : "main";
  }

  private chunkParsed(seq: number): void {
    if (this.disposed) return;
    this.parsed = seq;
    while (this.flushWaiters.length > 0 && this.flushWaiters[0]!.seq <= seq) this.flushWaiters.shift()!.resolve();
    for (const listener of [...this.parsedListeners]) {
      try {
        listener();
      } catch (e) {
        log("onParsed listener failed:", String(e));
      }
    }
  }
}
