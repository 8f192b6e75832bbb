/**
 * One session's viewer window: launch a terminal that cats the FIFO, wait for it to attach, paint
 * the current screen, stream every output chunk, repaint on resize, and tear everything down.
 */
import type { Subprocess } from "bun";
import type { Session } from "../session/session.ts";
import { log } from "../util/log.ts";
import { FifoWriter, removeViewerDir, waitForReader, type ViewerDir } from "./fifo.ts";
import type { LaunchPlan } from "./strategy.ts";

export interface ViewerStatus {
  requested: boolean;
  open: boolean;
  terminal?: string;
  fifo?: string;
  reason?: string;
}

/**
 * CAN first: the last streamed chunk may have ended inside an escape sequence, and CAN aborts it
 * so the reset is not swallowed. Then full reset (also leaves the alt screen), home, clear screen,
 * clear scrollback: the repaint that follows carries its own scrollback.
 */
const RESET = "\x18\x1bc\x1b[H\x1b[2J\x1b[3J";
/** xterm/VTE window op: resize the text area to rows x cols. Terminals without it ignore it. */
const resizeWindow = (cols: number, rows: number) => `\x1b[8;${rows};${cols}t`;
/** History sent with each repaint: enough to scroll back in the window, not the whole 10k-line buffer. */
const VIEWER_REDRAW_SCROLLBACK = 1000;
/** Resizes come in bursts (a drag); repaint once they settle and the app has redrawn. */
const RESIZE_SETTLE_MS = 100;
/** Redraw attempts before accepting that output never pauses long enough for an exact snapshot. */
const MAX_SYNC_TRIES = 10;
const STDIO_LIMIT = 4096;

type Phase = "launching" | "syncing" | "live" | "closed";

export class Viewer {
  private phase: Phase = "launching";
  private proc: Subprocess<"ignore", "pipe", "pipe"> | undefined;
  private plan: LaunchPlan | undefined;
  private stdout: Promise<string> = Promise.resolve("");
  private stderr: Promise<string> = Promise.resolve("");
  private writer: FifoWriter | undefined;
  /** Output chunks seen; a change across an await means the emulator got more bytes meanwhile. */
  private chunks = 0;
  private pending: Uint8Array[] = [];
  private resyncAgain = false;
  private redrawTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly unsubscribe: (() => void)[];
  private closing: Promise<void> | undefined;

  constructor(
    private readonly session: Session,
    readonly dir: ViewerDir,
    private readonly env: Record<string, string>,
    private readonly onClosed: () => void,
  ) {
    this.unsubscribe = [
      session.onOutput((chunk) => this.output(chunk)),
      session.onResize(() => this.scheduleRedraw(RESIZE_SETTLE_MS)),
      session.onExit(() => void this.close()),
    ];
  }

  private get closed(): boolean {
    return this.phase === "closed";
  }

  /**
   * Try each plan until one attaches. A terminal that fails to start (spawn error, non-zero exit)
   * falls through to the next; one that starts but never opens the pipe ends the search, since
   * trying another could leave two windows.
   */
  async launch(plans: LaunchPlan[], timeoutMs: number): Promise<ViewerStatus> {
    const failures: string[] = [];
    for (const plan of plans) {
      const spawnError = this.spawn(plan);
      if (spawnError !== undefined) {
        failures.push(`${plan.terminal}: ${spawnError}`);
        continue;
      }
      const result = await waitForReader(this.dir.fifo, performance.now() + timeoutMs, () => this.whyStop());
      if ("fd" in result) {
        this.writer = new FifoWriter(
          result.fd,
          (e) => this.detach(e),
          () => this.scheduleRedraw(200),
        );
        await this.resync();
        return { requested: true, open: true, terminal: plan.terminal, fifo: this.dir.fifo };
      }
      if (result.failed === "exited") {
        const stderr = (await withTimeout(this.stderr, 500, "")).trim().split("\n").slice(-3).join(" | ");
        failures.push(`${plan.terminal} exited with ${describeExit(this.proc)}${stderr ? `: ${stderr}` : ""}`);
        continue;
      }
      failures.push(
        result.failed === "timeout"
          ? `${plan.terminal} started but did not open the viewer pipe within ${timeoutMs} ms`
          : result.failed,
      );
      break;
    }
    await this.close();
    return { requested: true, open: false, reason: failures.join("; ") || "no viewer to launch" };
  }

  /** Idempotent; resolves once the window is gone (or killed) and the directory removed. */
  close(): Promise<void> {
    return (this.closing ??= this.teardown());
  }

  /** Last resort from process.on("exit"): nothing async runs any more. */
  killSync(): void {
    this.phase = "closed";
    this.writer?.close();
    if (this.proc !== undefined && this.proc.exitCode === null && this.proc.signalCode === null)
      killGroup(this.proc.pid, "SIGTERM");
    try {
      removeViewerDir(this.dir);
    } catch {
      // exiting anyway
    }
  }

  private spawn(plan: LaunchPlan): string | undefined {
    try {
      // Own process group (setsid) so teardown can signal the terminal and whatever it started.
      // stdout must never be inherited: it is the MCP protocol stream.
      const proc = Bun.spawn(plan.argv, { env: this.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      this.proc = proc;
      this.plan = plan;
      this.stdout = readCapped(proc.stdout);
      this.stderr = readCapped(proc.stderr);
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private whyStop(): string | undefined {
    if (this.closed) return `session ${this.session.id} ended before the viewer window opened`;
    const proc = this.proc;
    // exit 0 is how launchers (gnome-terminal, osascript) hand the window to a server: keep waiting
    if (proc !== undefined && (proc.signalCode !== null || (proc.exitCode !== null && proc.exitCode !== 0)))
      return "exited";
    return undefined;
  }

  private output(chunk: Uint8Array): void {
    this.chunks++;
    if (this.phase === "live") this.writer?.write(chunk);
    else if (this.phase === "syncing") this.pending.push(chunk.slice());
  }

  private scheduleRedraw(delayMs: number): void {
    if (this.closed || this.writer === undefined) return;
    clearTimeout(this.redrawTimer);
    this.redrawTimer = setTimeout(() => void this.resync(), delayMs);
  }

  /**
   * Paint the emulator's current state. The snapshot must line up with the stream: wait until
   * everything received is parsed with no chunk arriving meanwhile, snapshot synchronously, then
   * stream from there. Chunks that arrive while waiting are held back (the snapshot has them).
   */
  private async resync(): Promise<void> {
    if (this.phase === "syncing") {
      this.resyncAgain = true;
      return;
    }
    do {
      this.resyncAgain = false;
      this.phase = "syncing";
      let exact = false;
      for (let tries = 0; tries < MAX_SYNC_TRIES && !exact; tries++) {
        this.pending = [];
        const mark = this.chunks;
        await this.session.emulator.flushed();
        exact = this.chunks === mark;
      }
      if (this.closed) return;
      let screen = "";
      try {
        screen = this.session.emulator.serializeScreen(VIEWER_REDRAW_SCROLLBACK);
      } catch (error) {
        log(`viewer ${this.session.id}: could not serialize the screen:`, String(error));
      }
      this.writer?.write(RESET + resizeWindow(this.session.cols, this.session.rows) + screen);
      // Not exact: these may repeat bytes the snapshot already shows, which beats dropping them.
      for (const chunk of this.pending.splice(0)) this.writer?.write(chunk);
      if (this.closed) return; // a write failed (EPIPE) and detached us meanwhile
      this.phase = "live";
    } while (this.resyncAgain);
  }

  private detach(error: NodeJS.ErrnoException): void {
    log(`viewer ${this.session.id}: window went away (${error.code ?? error.message}); detaching`);
    void this.close();
  }

  private async teardown(): Promise<void> {
    const launched = this.phase !== "launching";
    this.phase = "closed";
    for (const off of this.unsubscribe) off();
    clearTimeout(this.redrawTimer);
    try {
      if (this.writer !== undefined) {
        await this.writer.drain(300); // let the session's last frame through
        this.writer.close(); // the reader sees EOF, cat exits, the window closes by itself
      }
      const proc = this.proc;
      if (proc !== undefined) {
        if (!(await exitedWithin(proc, launched ? 1000 : 0))) {
          killGroup(proc.pid, "SIGTERM");
          if (!(await exitedWithin(proc, 1000))) killGroup(proc.pid, "SIGKILL");
        }
        const closeArgv = this.plan?.closeArgv?.(await withTimeout(this.stdout, 500, ""));
        if (closeArgv !== undefined) await runQuietly(closeArgv, this.env);
      }
      removeViewerDir(this.dir);
    } catch (error) {
      log(`viewer ${this.session.id}: cleanup failed:`, String(error));
    } finally {
      this.onClosed();
    }
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal); // not a group leader after all, or already gone
    } catch {
      // gone
    }
  }
}

async function exitedWithin(proc: Subprocess, ms: number): Promise<boolean> {
  if (proc.exitCode !== null || proc.signalCode !== null) return true;
  return withTimeout(
    proc.exited.then(() => true),
    ms,
    false,
  );
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), ms))),
  ]).finally(() => clearTimeout(timer));
}

function describeExit(proc: Subprocess | undefined): string {
  if (proc?.signalCode) return `signal ${proc.signalCode}`;
  return `code ${proc?.exitCode ?? "?"}`;
}

/** The first STDIO_LIMIT bytes of a stream, reading (and discarding) the rest so the child never blocks. */
async function readCapped(stream: ReadableStream<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  try {
    for await (const chunk of stream)
      if (text.length < STDIO_LIMIT)
        text += decoder.decode(chunk, { stream: true }).slice(0, STDIO_LIMIT - text.length);
  } catch {
    // the pipe broke: keep what we have
  }
  return text;
}

async function runQuietly(argv: string[], env: Record<string, string>): Promise<void> {
  try {
    const proc = Bun.spawn(argv, { env, stdio: ["ignore", "ignore", "ignore"] });
    if (!(await exitedWithin(proc, 2000))) proc.kill("SIGKILL");
  } catch (error) {
    log("viewer close command failed:", String(error));
  }
}
