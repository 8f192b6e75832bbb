/**
 * PTY backend on Bun's built-in `Bun.Terminal` + `Bun.spawn({ terminal })` (POSIX only).
 * Preferred where available: output arrives as raw bytes, reads are event-driven (no poll
 * interval), and `Subprocess` reports the real exit code or signal.
 *
 * Each session's PTY is read by its own Worker (bun-terminal-worker.ts), because `Bun.Terminal`
 * cannot pause reading: a reader that must stop while the parser is behind has to block, and only
 * a thread of its own can. Writes and resizes are posted to it; signals go from here by pid.
 */
import { FlowGate } from "./flow.ts";
import { log } from "../util/log.ts";
import { deliverSignal } from "./signal.ts";
import type { FromReader, ToReader } from "./bun-terminal-worker.ts";
import { PtyEvents, type PtyBackend, type PtyProcess, type PtySpawnOptions } from "./types.ts";

/**
 * The reader's module. In a standalone executable (build.ts lists it as a second entry point) it
 * lives in Bun's embedded file system, found by its path from the common source root; in a source
 * checkout it sits next to this file.
 */
const READER_ENTRY = import.meta.url.includes("$bunfs") ? "./pty/bun-terminal-worker.ts" : new URL("./bun-terminal-worker.ts", import.meta.url).href;

class BunTerminalProcess extends PtyEvents implements PtyProcess {
  private readonly gate = new FlowGate();
  /** `smol`: a reader thread only copies and posts chunks; a small heap collected often keeps each one near 1 MiB. */
  private readonly worker = new Worker(READER_ENTRY, { smol: true });
  private readonly started = Promise.withResolvers<number>();
  private exited = false;
  private closed = false;
  pid = -1;

  constructor(options: PtySpawnOptions) {
    super();
    this.worker.unref(); // a reader thread never keeps the server alive on its own
    this.worker.onmessage = (event: MessageEvent<FromReader>) => this.receive(event.data);
    this.worker.onerror = (event) => this.readerFailed(event.message);
    this.send({ type: "spawn", options, gate: this.gate.shared });
  }

  /** Resolves once the child runs (its pid known), rejects if it could not be spawned. */
  async ready(): Promise<this> {
    this.pid = await this.started.promise;
    return this;
  }

  write(data: Uint8Array): void {
    if (!this.closed && !this.exited) this.send({ type: "write", data });
  }

  resize(cols: number, rows: number): void {
    if (!this.closed && !this.exited) this.send({ type: "resize", cols, rows });
  }

  signal(signal: NodeJS.Signals): boolean {
    if (this.exited || this.pid <= 0) return false;
    return deliverSignal(this.pid, signal);
  }

  consumed(bytes: number): void {
    this.gate.release(bytes);
  }

  get backlog(): number {
    return this.gate.pending;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.gate.close(); // unblock the reader first, or it cannot take the message
    if (this.exited) this.worker.terminate();
    else this.send({ type: "close" });
  }

  /**
   * The reader thread died: a session not yet started fails to start; a running one can no longer be
   * read or written, so its child is killed and the session ends instead of hanging.
   */
  private readerFailed(message: string): void {
    log(`reader thread of pid ${this.pid} failed: ${message}`);
    this.started.reject(new Error(message));
    if (this.pid > 0 && !this.exited) {
      this.signal("SIGKILL");
      this.receive({ type: "exit", exitCode: null, signal: "SIGKILL" });
    }
    this.close();
  }

  private send(message: ToReader): void {
    this.worker.postMessage(message);
  }

  private receive(message: FromReader): void {
    switch (message.type) {
      case "spawned":
        this.started.resolve(message.pid);
        break;
      case "failed":
        this.started.reject(new Error(message.message));
        this.worker.terminate();
        break;
      case "data":
        this.emitData(message.chunk);
        break;
      case "exit":
        this.exited = true;
        this.gate.close();
        this.emitExit({ exitCode: message.exitCode, signal: message.signal });
        if (this.closed) this.worker.terminate();
        break;
    }
  }
}

export const bunTerminalBackend: PtyBackend = {
  name: "bun-terminal",
  spawn: (options) => new BunTerminalProcess(options).ready(),
};

export function bunTerminalAvailable(): boolean {
  return process.platform !== "win32" && typeof (Bun as { Terminal?: unknown }).Terminal === "function";
}
