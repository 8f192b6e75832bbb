/**
 * PTY backend on Bun's built-in `Bun.Terminal` + `Bun.spawn({ terminal })` (POSIX only).
 * Preferred where available: output arrives as raw bytes, reads are event-driven (no poll
 * interval), and `Subprocess` reports the real exit code or signal.
 *
 * Sessions are read by Worker threads (bun-terminal-worker.ts) so reading overlaps parsing, and
 * because `Bun.Terminal` cannot pause reading, a child is held back some other way (flow.ts): where
 * the tty can be stopped (tty-flow.ts, Linux) one shared thread reads every session; elsewhere each
 * session gets a thread of its own that blocks. Writes and resizes are posted to the reader; signals
 * go from here by pid.
 */
import { FlowGate } from "./flow.ts";
import { log } from "../util/log.ts";
import { deliverSignal } from "./signal.ts";
import { ttyFlow } from "./tty-flow.ts";
import type { FromReader, ToReader } from "./bun-terminal-worker.ts";
import { PtyEvents, type PtyBackend, type PtyProcess, type PtySpawnOptions } from "./types.ts";

/**
 * The reader's module. In a standalone executable (build.ts lists it as a second entry point) it
 * lives in Bun's embedded file system, found by its path from the common source root; in a source
 * checkout it sits next to this file.
 */
const READER_ENTRY = import.meta.url.includes("$bunfs")
  ? "./pty/bun-terminal-worker.ts"
  : new URL("./bun-terminal-worker.ts", import.meta.url).href;

/** A reader thread and the sessions it reads. */
class ReaderThread {
  /** `smol`: a reader only copies and posts chunks; a small heap collected often keeps it near 1 MiB. */
  private readonly worker = new Worker(READER_ENTRY, { smol: true });
  private readonly sessions = new Map<number, BunTerminalProcess>();

  constructor(readonly shared: boolean) {
    this.worker.unref(); // a reader thread never keeps the server alive on its own
    this.worker.onmessage = (event: MessageEvent<FromReader>) => this.sessions.get(event.data.key)?.receive(event.data);
    this.worker.onerror = (event) => {
      // The thread is gone: its sessions can no longer be read or written, so they end now.
      if (sharedReader === this) sharedReader = undefined;
      for (const session of [...this.sessions.values()]) session.readerFailed(new Error(event.message));
    };
  }

  attach(key: number, session: BunTerminalProcess): void {
    this.sessions.set(key, session);
  }

  send(message: ToReader): void {
    this.worker.postMessage(message);
  }

  /** A session is done with this thread; a thread of its own ends with it. */
  detach(key: number): void {
    this.sessions.delete(key);
    if (!this.shared) this.worker.terminate();
  }
}

let sharedReader: ReaderThread | undefined;
let nextKey = 0;
let blockingOnly = false;

/** Tests: give each new session a blocking reader of its own, as on platforms without tty flow control. */
export function useBlockingReaders(on: boolean): void {
  blockingOnly = on;
}

function readerThread(): ReaderThread {
  return !blockingOnly && ttyFlow() !== undefined ? (sharedReader ??= new ReaderThread(true)) : new ReaderThread(false);
}

class BunTerminalProcess extends PtyEvents implements PtyProcess {
  private readonly gate = new FlowGate();
  private readonly key = ++nextKey;
  private readonly reader = readerThread();
  private readonly started = Promise.withResolvers<number>();
  private exited = false;
  private closed = false;
  pid = -1;

  constructor(options: PtySpawnOptions) {
    super();
    this.reader.attach(this.key, this);
    this.send({ type: "spawn", options, gate: this.gate.shared, holdAtTty: this.reader.shared });
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
    if (this.gate.release(bytes) && !this.closed) this.send({ type: "resume" });
  }

  get backlog(): number {
    return this.gate.pending;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.gate.close(); // unblock a blocking reader first, or it cannot take the message
    if (this.exited) this.reader.detach(this.key);
    else this.send({ type: "close" });
  }

  /** The reader thread died: a session not yet started fails to start; a running one is killed and ends. */
  readerFailed(error: Error): void {
    log(`reader thread failed: ${error.message}`);
    this.started.reject(error);
    if (this.pid > 0 && !this.exited) {
      this.signal("SIGKILL");
      this.receive({ type: "exit", key: this.key, exitCode: null, signal: "SIGKILL" });
    }
    this.close();
  }

  private send(message: ToReader extends infer M ? (M extends { key: number } ? Omit<M, "key"> : never) : never): void {
    this.reader.send({ ...message, key: this.key } as ToReader);
  }

  receive(message: FromReader): void {
    switch (message.type) {
      case "spawned":
        this.started.resolve(message.pid);
        break;
      case "failed":
        this.started.reject(new Error(message.message));
        this.reader.detach(this.key);
        break;
      case "data":
        this.emitData(message.chunk);
        break;
      case "error":
        log(`reader of pid ${this.pid}: ${message.message}`);
        break;
      case "exit":
        this.exited = true;
        this.gate.close();
        this.emitExit({ exitCode: message.exitCode, signal: message.signal });
        if (this.closed) this.reader.detach(this.key);
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
