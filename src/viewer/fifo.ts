/**
 * The pipe a viewer window reads: a private directory (0700) holding the FIFO and a tiny reader
 * script, a non-blocking open that waits for the reader, and a writer that never blocks the event
 * loop (EAGAIN queues, EPIPE detaches).
 */
import { chmodSync, closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { shellQuote } from "./quote.ts";

export interface ViewerDir {
  dir: string;
  fifo: string;
  /** Shell script that runs `cat <fifo>` in the host terminal. */
  reader: string;
}

/**
 * -echo: keys typed into the window, and the host terminal's answers to queries in the stream,
 * must not be echoed over the mirror. -opost: bytes reach the screen untranslated (a raw-mode TUI's
 * bare "\n" must not become "\r\n"). After EOF the script removes its own directory, so even a
 * server killed with SIGKILL leaves nothing behind. It is a file so every terminal gets one path
 * to run, whatever its -e parsing does with spaces and quotes.
 */
function readerScript(dir: string, fifo: string, reader: string): string {
  return [
    "#!/bin/sh",
    "stty -echo -opost 2>/dev/null",
    `cat -- ${shellQuote(fifo)}`,
    `rm -f -- ${shellQuote(fifo)} ${shellQuote(reader)}`,
    `rmdir -- ${shellQuote(dir)} 2>/dev/null`,
    "",
  ].join("\n");
}

export function createViewerDir(): ViewerDir {
  const dir = mkdtempSync(join(tmpdir(), "tui-tester-viewer-"));
  try {
    chmodSync(dir, 0o700); // mkdtemp already uses 0700; be explicit, other users must not read the stream
    const fifo = join(dir, "screen.fifo");
    const made = Bun.spawnSync(["mkfifo", "-m", "600", fifo], { stdio: ["ignore", "ignore", "pipe"] });
    if (made.exitCode !== 0)
      throw new Error(`mkfifo failed: ${made.stderr.toString().trim() || `exit ${made.exitCode}`}`);
    const reader = join(dir, "reader.sh");
    writeFileSync(reader, readerScript(dir, fifo, reader), { mode: 0o700 });
    return { dir, fifo, reader };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Remove the directory. A reader still blocked opening the FIFO (its window came up after we gave
 * up) would wait forever on the unlinked inode: open and close a writer first so it sees EOF.
 */
export function removeViewerDir(dir: ViewerDir): void {
  const fd = tryOpenWriter(dir.fifo);
  if (typeof fd === "number") closeSync(fd);
  rmSync(dir.dir, { recursive: true, force: true });
}

/** A write fd once a reader has the FIFO open; "waiting" while none has (ENXIO). */
function tryOpenWriter(fifo: string): number | "waiting" | Error {
  try {
    return openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return e.code === "ENXIO" ? "waiting" : e;
  }
}

/**
 * Poll for a reader every `intervalMs`. A plain open(O_WRONLY) would block the whole thread until
 * a reader arrives; O_NONBLOCK fails with ENXIO instead, so we retry from a timer. Resolves with the
 * fd, or with why not: "timeout", whatever stop() returned (it is asked before each try), or an open error.
 */
export async function waitForReader(
  fifo: string,
  deadline: number,
  stop: () => string | undefined,
  intervalMs = 25,
): Promise<{ fd: number } | { failed: string }> {
  for (;;) {
    const stopped = stop();
    if (stopped !== undefined) return { failed: stopped };
    const result = tryOpenWriter(fifo);
    if (typeof result === "number") return { fd: result };
    if (result instanceof Error) return { failed: `could not open the viewer pipe: ${result.message}` };
    if (performance.now() >= deadline) return { failed: "timeout" };
    await Bun.sleep(intervalMs);
  }
}

/** Past this much unsent output the viewer is stalled (e.g. ctrl+s in its window): drop it and redraw later. */
export const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
const RETRY_MS = 10;
const encoder = new TextEncoder();

/**
 * Writes to a non-blocking FIFO fd in order. writeSync on it never blocks: a full pipe gives a
 * partial write or EAGAIN, and the rest waits in a queue retried from a timer. Any other error
 * (EPIPE: the human closed the window) calls onError once and the writer goes quiet.
 */
export class FifoWriter {
  private queue: Uint8Array[] = [];
  private queued = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly onError: (error: Error) => void,
    private readonly onOverflow: () => void,
  ) {}

  get backlog(): number {
    return this.queued;
  }

  write(data: Uint8Array | string): void {
    if (this.closed) return;
    const bytes = typeof data === "string" ? encoder.encode(data) : data;
    if (bytes.length === 0) return;
    if (this.queue.length > 0) return this.enqueue(bytes.slice());
    const rest = this.send(bytes);
    // copy: the caller may reuse its buffer once write() returns
    if (rest !== null && rest.length > 0) this.enqueue(rest.slice());
  }

  /** Resolves when everything queued is written, or after timeoutMs, or once the writer failed. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (!this.closed && this.queue.length > 0 && performance.now() < deadline) await Bun.sleep(RETRY_MS);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.queue = [];
    this.queued = 0;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
  }

  private enqueue(bytes: Uint8Array): void {
    this.queue.push(bytes);
    this.queued += bytes.length;
    if (this.queued > MAX_BACKLOG_BYTES) {
      this.queue = [];
      this.queued = 0;
      this.onOverflow();
      return;
    }
    this.timer ??= setTimeout(() => this.flush(), RETRY_MS);
  }

  private flush(): void {
    this.timer = undefined;
    while (!this.closed && this.queue.length > 0) {
      const head = this.queue[0]!;
      const rest = this.send(head);
      if (rest === null) return;
      this.queued -= head.length - rest.length;
      if (rest.length > 0) {
        this.queue[0] = rest;
        this.timer = setTimeout(() => this.flush(), RETRY_MS);
        return;
      }
      this.queue.shift();
    }
  }

  /** What is left unsent (empty when all went), or null after a fatal error. */
  private send(bytes: Uint8Array): Uint8Array | null {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        const e = error as NodeJS.ErrnoException;
        if (e.code === "EAGAIN" || e.code === "EWOULDBLOCK" || e.code === "EINTR") return bytes.subarray(offset);
        this.close();
        this.onError(e);
        return null;
      }
    }
    return bytes.subarray(bytes.length);
  }
}
