/**
 * One browser tab's live copy of one session: a full repaint on attach and on resize, then every
 * output chunk. The repaint must line up with the stream, so it is taken only once the emulator
 * has parsed everything received with no new chunk arriving meanwhile (as the window viewer does).
 * Bounded: when the tab falls more than MAX_BACKLOG behind, chunks are dropped and a repaint is
 * sent once the socket drains.
 */
import type { Session } from "../session/session.ts";

/** History sent with a repaint, so the human can scroll back a little. */
const REPAINT_SCROLLBACK = 1000;
const MAX_SYNC_TRIES = 10;
const RESIZE_SETTLE_MS = 50;
export const MAX_BACKLOG = 1024 * 1024;

export type ServerMessage =
  | { type: "repaint"; id: string; cols: number; rows: number; data: string }
  | { type: "output"; id: string; data: string }
  | { type: "exit"; id: string; exitCode: number | null; signal: string | null };

export interface Sink {
  send(message: ServerMessage): void;
  /** Bytes queued in the socket and not yet sent. */
  backlog(): number;
}

export class SessionMirror {
  private phase: "syncing" | "live" | "stale" | "closed" = "syncing";
  private chunks = 0;
  /** Bumped by each resync; an older one that finishes late leaves the repaint to the newer. */
  private generation = 0;
  private pending: string[] = [];
  private readonly decoder = new TextDecoder();
  private readonly unsubscribe: (() => void)[];
  private resizeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly session: Session,
    private readonly sink: Sink,
  ) {
    this.unsubscribe = [
      session.onOutput((chunk) => this.output(chunk)),
      session.onResize(() => {
        clearTimeout(this.resizeTimer);
        this.resizeTimer = setTimeout(() => void this.resync(), RESIZE_SETTLE_MS);
      }),
      session.onExit((exit) =>
        this.sink.send({ type: "exit", id: session.id, exitCode: exit.exitCode, signal: exit.signal }),
      ),
    ];
    void this.resync();
  }

  /** The socket drained: a tab that fell behind gets a fresh repaint. */
  drained(): void {
    if (this.phase === "stale" && this.sink.backlog() < MAX_BACKLOG / 4) void this.resync();
  }

  close(): void {
    this.phase = "closed";
    clearTimeout(this.resizeTimer);
    for (const off of this.unsubscribe.splice(0)) off();
  }

  private output(chunk: Uint8Array): void {
    this.chunks++;
    const data = this.decoder.decode(chunk, { stream: true });
    if (this.phase === "syncing") this.pending.push(data);
    else if (this.phase === "live") {
      if (this.sink.backlog() > MAX_BACKLOG) this.phase = "stale";
      else this.sink.send({ type: "output", id: this.session.id, data });
    }
  }

  async resync(): Promise<void> {
    if (this.phase === "closed") return;
    this.phase = "syncing";
    const generation = ++this.generation;
    for (let tries = 0; tries < MAX_SYNC_TRIES; tries++) {
      this.pending = [];
      const mark = this.chunks;
      await this.session.emulator.flushed();
      if (this.chunks === mark) break;
    }
    if (this.phase !== "syncing" || generation !== this.generation) return;
    const { session } = this;
    this.sink.send({
      type: "repaint",
      id: session.id,
      cols: session.cols,
      rows: session.rows,
      data: session.emulator.serializeScreen(REPAINT_SCROLLBACK),
    });
    // Only when the loop gave up: these may repeat what the repaint shows, which beats losing them.
    for (const data of this.pending.splice(0)) this.sink.send({ type: "output", id: session.id, data });
    this.phase = "live";
  }
}
