/**
 * Frame recorder. Frames are taken on the emulator's parsed-write events, at most one per
 * `intervalMs` (a change is recorded at the next interval boundary, never lost between polls),
 * plus one per interval when `keepIdenticalFrames` asks for unchanged frames too.
 * Frames of a held synchronized update (mode 2026) are skipped until it completes (bounded).
 */
import type { Session } from "../session/session.ts";
import { DEFAULT_MAX_HOLD_MS } from "../term/emulator.ts";
import { diffSnapshots } from "../term/diff.ts";
import type { CursorState, SnapshotDiff } from "../term/types.ts";

export interface MonitorOptions {
  intervalMs: number;
  keepIdenticalFrames: boolean;
  maxFrames: number;
}

export interface Frame {
  takenAt: string;
  offsetMs: number;
  changed: boolean;
  text: string;
  cursor: CursorState;
  diff: SnapshotDiff;
}

export interface MonitorReport {
  monitorId: string;
  sessionId: string;
  frameCount: number;
  changedFrameCount: number;
  durationMs: number;
  /** Frames not kept because maxFrames was reached. */
  droppedFrames: number;
  frames: Frame[];
}

export class Monitor {
  private readonly frames: Frame[] = [];
  private readonly started = performance.now();
  private last: { lines: string[]; cursor: CursorState; cols: number; rows: number; text: string };
  private lastFrameAt = -Infinity;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private readonly unsubscribe: (() => void)[] = [];
  private dropped = 0;
  private stopped = false;

  constructor(
    readonly id: string,
    readonly session: Session,
    readonly options: MonitorOptions,
  ) {
    const first = session.emulator.snapshot();
    this.last = first;
    this.record(first, true);
    this.unsubscribe.push(session.emulator.onParsed(() => this.schedule()));
    // At the release instant the finished frame is on screen: record it now.
    this.unsubscribe.push(session.emulator.onSyncRelease(() => this.capture()));
    if (options.keepIdenticalFrames) this.ticker = setInterval(() => this.capture(), options.intervalMs);
  }

  stop(): MonitorReport {
    if (!this.stopped) {
      this.stopped = true;
      clearTimeout(this.timer);
      clearInterval(this.ticker);
      for (const fn of this.unsubscribe) fn();
      this.capture();
    }
    return {
      monitorId: this.id,
      sessionId: this.session.id,
      frameCount: this.frames.length,
      changedFrameCount: this.frames.filter((f) => f.changed).length,
      durationMs: Math.round(performance.now() - this.started),
      droppedFrames: this.dropped,
      frames: this.frames,
    };
  }

  /** The recorded frames so far without stopping (run_script embeds them). */
  get frameCount(): number {
    return this.frames.length;
  }

  private schedule(): void {
    if (this.timer !== undefined || this.stopped) return;
    const wait = Math.max(0, this.lastFrameAt + this.options.intervalMs - performance.now());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.capture();
    }, wait);
  }

  private capture(): void {
    const held = this.session.emulator.syncHeldSince;
    if (held !== null && performance.now() - held < DEFAULT_MAX_HOLD_MS && !this.stopped) return; // onSyncRelease reschedules
    const snapshot = this.session.emulator.snapshot();
    const diff = diffSnapshots(this.last, snapshot);
    if (diff.identical && !this.options.keepIdenticalFrames) return;
    this.record(snapshot, !diff.identical, diff);
    this.last = snapshot;
  }

  private record(snapshot: { text: string; cursor: CursorState; lines: string[]; cols: number; rows: number }, changed: boolean, diff?: SnapshotDiff): void {
    this.lastFrameAt = performance.now();
    if (this.frames.length >= this.options.maxFrames) {
      this.dropped++;
      return;
    }
    this.frames.push({
      takenAt: new Date().toISOString(),
      offsetMs: Math.round(this.lastFrameAt - this.started),
      changed,
      text: snapshot.text,
      cursor: snapshot.cursor,
      diff: diff ?? diffSnapshots(snapshot, snapshot),
    });
  }
}
