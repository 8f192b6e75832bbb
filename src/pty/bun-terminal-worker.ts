/**
 * A reader thread for bun-terminal sessions. It owns `Bun.spawn({ terminal })`, so PTY reads happen
 * here while the main thread parses: the two overlap instead of taking turns (bench/README.md
 * measures both). Each chunk is posted (transferred) to the main thread and counted in its session's
 * FlowGate. Over the high-water mark the child is held back (flow.ts): at the tty where it can be
 * (one thread then reads every session), else by blocking this thread (one thread per session).
 */
import { FlowGate } from "./flow.ts";
import { slavePathOf, ttyFlow } from "./tty-flow.ts";
import type { PtySpawnOptions } from "./types.ts";

/**
 * The process can be reaped before the PTY has delivered its last bytes; the terminal's `exit`
 * callback (EOF on the master) marks the end of output. Should EOF never come (a grandchild
 * keeping the slave open), stop waiting for it this long after the process exits.
 */
const EOF_GRACE_MS = 1000;

export type ToReader =
  | { type: "spawn"; key: number; options: PtySpawnOptions; gate: SharedArrayBuffer; holdAtTty: boolean }
  | { type: "write"; key: number; data: Uint8Array }
  | { type: "resize"; key: number; cols: number; rows: number }
  | { type: "resume"; key: number }
  | { type: "close"; key: number };

export type FromReader =
  | { type: "spawned"; key: number; pid: number }
  | { type: "failed"; key: number; message: string }
  | { type: "data"; key: number; chunk: Uint8Array }
  | { type: "error"; key: number; message: string }
  | { type: "exit"; key: number; exitCode: number | null; signal: string | null };

declare const self: Worker;
const post = (message: FromReader, transfer: ArrayBuffer[] = []) => self.postMessage(message, transfer);

class Reader {
  terminal: Bun.Terminal | undefined;
  readonly eof = Promise.withResolvers<void>();
  /** How the child is held back: at its tty (a shared thread) or by blocking this thread (a thread of its own). */
  private holdAtTty = false;
  private pid = -1;
  /**
   * The child's tty, looked up when first needed (by then the child has surely set up its stdio).
   * Should it not be found (the child closed its stdio), nothing holds it back: the emulator's queue
   * limit is then the bound, with drops counted.
   */
  private slave: string | undefined;

  constructor(
    readonly key: number,
    readonly gate: FlowGate,
  ) {}

  spawn(options: PtySpawnOptions, holdAtTty: boolean): void {
    // Inline terminal options (not a shared Bun.Terminal instance): the parent then holds no slave
    // fd, so EOF on the master marks the true end of the child's output.
    const proc = Bun.spawn([options.file, ...options.args], {
      cwd: options.cwd,
      env: options.env,
      terminal: {
        cols: options.cols,
        rows: options.rows,
        name: options.env.TERM ?? "xterm-256color",
        data: (_t, data) => guarded(this.key, () => this.data(data)),
        exit: () => this.eof.resolve(),
      },
    });
    this.terminal = proc.terminal;
    this.holdAtTty = holdAtTty;
    this.pid = proc.pid;
    post({ type: "spawned", key: this.key, pid: proc.pid });
    void proc.exited.then(async () => {
      await Promise.race([this.eof.promise, Bun.sleep(EOF_GRACE_MS)]);
      readers.delete(this.key);
      post({
        type: "exit",
        key: this.key,
        exitCode: proc.exitCode,
        signal: typeof proc.signalCode === "string" ? proc.signalCode : null,
      });
    });
  }

  private data(data: Uint8Array): void {
    const chunk = data.slice(); // Bun may reuse its read buffer; transfer our own copy
    const size = chunk.length; // read before the transfer detaches it
    post({ type: "data", key: this.key, chunk }, [chunk.buffer]);
    if (!this.gate.add(size)) return;
    if (this.holdAtTty)
      this.pause(); // again if already paused: a ^Q may have restarted output
    else this.gate.waitUnder();
  }

  /**
   * Stop the child's output at its tty. The main thread asks for a resume when the backlog falls to
   * LOW_WATER while paused; should it have fallen before `paused` was set, resume here.
   */
  private pause(): void {
    this.slave ??= slavePathOf(this.pid);
    // a gone tty: nothing to hold back
    if (this.slave === undefined || this.gate.closed || !ttyFlow()!.pause(this.slave)) return;
    this.gate.setPaused(true);
    if (!this.gate.over) this.resume();
  }

  resume(): void {
    if (this.slave === undefined || !this.gate.paused) return;
    this.gate.setPaused(false);
    ttyFlow()!.resume(this.slave);
  }

  close(): void {
    // Closing the master hangs the line up; nothing more will be read, so do not wait for EOF.
    this.resume(); // a child stopped at the tty must see the hang-up, not stay blocked in write(2)
    this.terminal?.close();
    this.eof.resolve();
  }
}

const readers = new Map<number, Reader>();

/** A thread may serve every session: one session's failure is reported, never left to end the thread. */
function guarded(key: number, work: () => void): void {
  try {
    work();
  } catch (error) {
    post({ type: "error", key, message: error instanceof Error ? error.message : String(error) });
  }
}

self.onmessage = (event: MessageEvent<ToReader>) => guarded(event.data.key, () => handle(event.data));

function handle(message: ToReader): void {
  if (message.type === "spawn") {
    const reader = new Reader(message.key, new FlowGate(message.gate));
    readers.set(message.key, reader);
    try {
      reader.spawn(message.options, message.holdAtTty && ttyFlow() !== undefined);
    } catch (error) {
      readers.delete(message.key);
      post({ type: "failed", key: message.key, message: error instanceof Error ? error.message : String(error) });
    }
    return;
  }
  const reader = readers.get(message.key);
  const terminal = reader?.terminal;
  if (reader === undefined || terminal === undefined) return;
  switch (message.type) {
    case "write":
      if (!terminal.closed) terminal.write(message.data);
      break;
    case "resize":
      if (!terminal.closed) terminal.resize(message.cols, message.rows);
      break;
    case "resume":
      reader.resume();
      break;
    case "close":
      reader.close();
      break;
  }
}
