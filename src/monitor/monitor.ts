/**
 * Frame recorder. Frames are taken on the emulator's parsed-write events, at most one per
 * `intervalMs` (a change is recorded at the next interval boundary, never lost between polls),
 * plus one per interval when `keepIdenticalFrames` asks for unchanged frames too.
 * Frames of a held synchronized update (mode 2026) are skipped until it completes (bounded).
 *
 * Memory is bounded: the first frame carries the whole screen `text`, every later frame only its
 * row diff from the frame before (and the text again after a resize). Frames are kept while their
 * size stays within `maxBytes`; past it, or past `maxFrames`, recording stops and the report says
 * `truncated: true` with `droppedFrames` counted, and `finalText` still shows the last screen.
 *
 * A monitor ends with its session: the exit is its last frame, and its frames stay readable
 * through stop_monitor (src/monitor/registry.ts keeps a bounded number of ended monitors).
 */
import type { Session } from "../session/session.ts";
import { DEFAULT_MAX_HOLD_MS } from "../term/emulator.ts";
import { diffSnapshots } from "../term/diff.ts";
import type { CursorState, SnapshotDiff } from "../term/types.ts";

/** Default frame budget of one monitor (text and diffs, in UTF-16 code units, about bytes). */
export const DEFAULT_MONITOR_BYTES = 4 * 1024 * 1024;

export interface MonitorOptions {
  intervalMs: number;
  keepIdenticalFrames: boolean;
  maxFrames: number;
  /** Frame budget; DEFAULT_MONITOR_BYTES when absent. */
  maxBytes?: number;
}

export interface Frame {
  takenAt: string;
  offsetMs: number;
  changed: boolean;
  /** The whole screen: on the first frame and after a resize. Other frames carry only `diff`. */
  text?: string;
  cursor: CursorState;
  /** Row diff from the previous frame. */
  diff: SnapshotDiff;
}

export interface MonitorReport {
  monitorId: string;
  sessionId: string;
  frameCount: number;
  changedFrameCount: number;
  durationMs: number;
  /** Frames not kept because maxFrames or maxBytes was reached. */
  droppedFrames: number;
  /** True when frames were dropped: the recording stops at the first one that does not fit. */
  truncated: boolean;
  /** Size of the kept frames' text and diffs (about bytes), and the budget. */
  bytes: number;
  maxBytes: number;
  /** The screen when the monitor stopped. */
  finalText: string;
  /** Set when recording ended because the session exited, before stop_monitor was called. */
  endedBySessionExit?: true;
  frames: Frame[];
}

/** Rough size of a frame in the reply: its text and diff strings plus the fixed fields. */
function frameSize(frame: Frame): number {
  let n = 160 + (frame.text?.length ?? 0);
  for (const line of frame.diff.changedLines) n += 40 + line.before.length + line.after.length;
  for (const row of [...frame.diff.addedRows, ...frame.diff.removedRows]) n += 30 + row.text.length;
  return n;
}

/** The screen text of every frame, rebuilt from the first frame's text and the diffs after it. */
export function replayFrames(frames: readonly Frame[]): string[] {
  const texts: string[] = [];
  let lines: string[] = [];
  for (const frame of frames) {
    if (frame.text !== undefined) lines = frame.text.split("\n");
    else {
      lines = lines.slice(0, lines.length - frame.diff.removedRows.length);
      for (const change of frame.diff.changedLines) lines[change.row] = change.after;
      for (const added of frame.diff.addedRows) lines[added.row] = added.text;
    }
    texts.push(lines.join("\n"));
  }
  return texts;
}

export class Monitor {
  private readonly frames: Frame[] = [];
  private readonly started = performance.now();
  private last: { lines: string[]; cursor: CursorState; cols: number; rows: number; text: string };
  private lastFrameAt = -Infinity;
  private lastCaptureAt = -Infinity;
  private captureCost = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private readonly unsubscribe: (() => void)[] = [];
  private dropped = 0;
  private bytes = 0;
  private readonly maxBytes: number;
  private stopped = false;
  private endedAt: number | undefined;

  constructor(
    readonly id: string,
    readonly session: Session,
    readonly options: MonitorOptions,
  ) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MONITOR_BYTES;
    const first = session.emulator.snapshot();
    this.last = first;
    this.record(first, true);
    this.unsubscribe.push(session.emulator.onParsed(() => this.schedule()));
    // At the release instant the finished frame is on screen: record it now.
    this.unsubscribe.push(session.emulator.onSyncRelease(() => this.capture()));
    if (options.keepIdenticalFrames) this.ticker = setInterval(() => this.capture(), options.intervalMs);
    if (session.exit !== null) this.end();
    else this.unsubscribe.push(session.onExit(() => this.end()));
  }

  /** Still recording: neither stopped nor ended by its session's exit. */
  get recording(): boolean {
    return !this.stopped;
  }

  /** The session exited: take the final screen and stop recording; the frames wait for stop(). */
  private end(): void {
    if (this.stopped) return;
    this.finish();
    this.endedAt = performance.now();
  }

  private finish(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.ticker);
    for (const fn of this.unsubscribe) fn();
    this.capture();
  }

  stop(): MonitorReport {
    if (!this.stopped) this.finish();
    return {
      monitorId: this.id,
      sessionId: this.session.id,
      frameCount: this.frames.length,
      changedFrameCount: this.frames.filter((f) => f.changed).length,
      durationMs: Math.round((this.endedAt ?? performance.now()) - this.started),
      droppedFrames: this.dropped,
      truncated: this.dropped > 0,
      bytes: this.bytes,
      maxBytes: this.maxBytes,
      finalText: this.last.text,
      frames: this.frames,
      ...(this.endedAt !== undefined ? { endedBySessionExit: true as const } : {}),
    };
  }

  /** The recorded frames so far without stopping (run_script embeds them). */
  get frameCount(): number {
    return this.frames.length;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.stopped) return;
    // Captures are spaced by at least their own cost (a 1000x500 screen takes tens of ms to read).
    const wait = Math.max(
      0,
      this.lastCaptureAt + Math.max(this.options.intervalMs, this.captureCost) - performance.now(),
    );
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.capture();
    }, wait);
  }

  private capture(): void {
    const held = this.session.emulator.syncHeldSince;
    // onSyncRelease reschedules
    if (held !== null && performance.now() - held < DEFAULT_MAX_HOLD_MS && !this.stopped) return;
    const start = performance.now();
    const snapshot = this.session.emulator.snapshot();
    if (this.dropped > 0) {
      // Recording has stopped (a later diff would not apply to the last kept frame); keep the screen for finalText.
      this.last = snapshot;
      this.dropped++;
    } else {
      const diff = diffSnapshots(this.last, snapshot);
      if (diff.identical && !this.options.keepIdenticalFrames) return;
      this.record(snapshot, !diff.identical, diff);
      this.last = snapshot;
    }
    this.lastCaptureAt = performance.now();
    this.captureCost = this.lastCaptureAt - start;
  }

  private record(
    snapshot: { text: string; cursor: CursorState; lines: string[]; cols: number; rows: number },
    changed: boolean,
    diff?: SnapshotDiff,
  ): void {
    this.lastFrameAt = performance.now();
    const frame: Frame = {
      takenAt: new Date().toISOString(),
      offsetMs: Math.round(this.lastFrameAt - this.started),
      changed,
      cursor: snapshot.cursor,
      diff: diff ?? diffSnapshots(snapshot, snapshot),
    };
    if (diff === undefined || diff.resized) frame.text = snapshot.text;
    const size = frameSize(frame);
    if (this.frames.length >= this.options.maxFrames || this.bytes + size > this.maxBytes) {
      this.dropped++;
      return;
    }
    this.bytes += size;
    this.frames.push(frame);
  }
}
