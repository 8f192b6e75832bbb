/**
 * The reader thread of one bun-terminal session. It owns `Bun.spawn({ terminal })`, so PTY reads
 * happen here while the main thread parses: the two overlap instead of taking turns (bench/README.md
 * measures both). Each chunk is posted (transferred) to the main thread and counted in the session's
 * FlowGate; above the high-water mark this thread blocks in Atomics.wait, its event loop stops reading
 * the PTY, the kernel's tty buffer fills and the child blocks, as with a real terminal.
 */
import { FlowGate } from "./flow.ts";
import type { PtySpawnOptions } from "./types.ts";

/**
 * The process can be reaped before the PTY has delivered its last bytes; the terminal's `exit`
 * callback (EOF on the master) marks the end of output. Should EOF never come (a grandchild
 * keeping the slave open), stop waiting for it this long after the process exits.
 */
const EOF_GRACE_MS = 1000;

export type ToReader =
  | { type: "spawn"; options: PtySpawnOptions; gate: SharedArrayBuffer }
  | { type: "write"; data: Uint8Array }
  | { type: "resize"; cols: number; rows: number }
  | { type: "close" };

export type FromReader =
  | { type: "spawned"; pid: number }
  | { type: "failed"; message: string }
  | { type: "data"; chunk: Uint8Array }
  | { type: "exit"; exitCode: number | null; signal: string | null };

declare const self: Worker;
const post = (message: FromReader, transfer: ArrayBuffer[] = []) => self.postMessage(message, transfer);

let terminal: Bun.Terminal | undefined;
const eof = Promise.withResolvers<void>();

function spawn(options: PtySpawnOptions, gate: FlowGate): void {
  // Inline terminal options (not a shared Bun.Terminal instance): the parent then holds no slave
  // fd, so EOF on the master marks the true end of the child's output.
  const proc = Bun.spawn([options.file, ...options.args], {
    cwd: options.cwd,
    env: options.env,
    terminal: {
      cols: options.cols,
      rows: options.rows,
      name: options.env.TERM ?? "xterm-256color",
      data: (_t, data) => {
        const chunk = data.slice(); // Bun may reuse its read buffer; transfer our own copy
        const size = chunk.length; // read before the transfer detaches it
        post({ type: "data", chunk }, [chunk.buffer]);
        if (gate.add(size)) gate.waitUnder();
      },
      exit: () => eof.resolve(),
    },
  });
  terminal = proc.terminal;
  post({ type: "spawned", pid: proc.pid });
  void proc.exited.then(async () => {
    await Promise.race([eof.promise, Bun.sleep(EOF_GRACE_MS)]);
    post({ type: "exit", exitCode: proc.exitCode, signal: typeof proc.signalCode === "string" ? proc.signalCode : null });
  });
}

self.onmessage = (event: MessageEvent<ToReader>) => {
  const message = event.data;
  switch (message.type) {
    case "spawn":
      try {
        spawn(message.options, new FlowGate(message.gate));
      } catch (error) {
        post({ type: "failed", message: error instanceof Error ? error.message : String(error) });
      }
      break;
    case "write":
      if (terminal !== undefined && !terminal.closed) terminal.write(message.data);
      break;
    case "resize":
      if (terminal !== undefined && !terminal.closed) terminal.resize(message.cols, message.rows);
      break;
    case "close":
      // Closing the master hangs the line up; nothing more will be read, so do not wait for EOF.
      terminal?.close();
      eof.resolve();
      break;
  }
};
