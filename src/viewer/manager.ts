/**
 * Viewer windows for `visible: true` / `viewerCommand`: at most one per session, each mirroring
 * the PTY through a FIFO. Opening never throws for an environment without a window (no display,
 * no terminal, unsupported platform): the status says why, and the session runs on regardless.
 */
import type { Session } from "../session/session.ts";
import { log } from "../util/log.ts";
import { createViewerDir } from "./fifo.ts";
import { viewerTitle, type ViewerCommand } from "./quote.ts";
import { chooseStrategy } from "./strategy.ts";
import { Viewer, type ViewerStatus } from "./viewer.ts";

export type { ViewerCommand } from "./quote.ts";
export type { ViewerStatus } from "./viewer.ts";

export interface ViewerManagerOptions {
  platform?: NodeJS.Platform;
  env?: Record<string, string | undefined>;
  /** How long a launched terminal gets to open the pipe (window managers and D-Bus activation can be slow). */
  attachTimeoutMs?: number;
}

const DEFAULT_ATTACH_TIMEOUT_MS = 8000;

interface Entry {
  viewer: Viewer | undefined;
  status: Promise<ViewerStatus>;
}

export class ViewerManager {
  private readonly platform: NodeJS.Platform;
  private readonly env: Record<string, string | undefined>;
  private readonly attachTimeoutMs: number;
  private readonly entries = new Map<string, Entry>();
  /** If the server dies without closeAll, still close the windows and remove the FIFOs. */
  private readonly onProcessExit = () => {
    for (const entry of this.entries.values()) entry.viewer?.killSync();
  };
  private exitHookInstalled = false;

  constructor(options: ViewerManagerOptions = {}) {
    this.platform = options.platform ?? process.platform;
    this.env = options.env ?? process.env;
    this.attachTimeoutMs = options.attachTimeoutMs ?? DEFAULT_ATTACH_TIMEOUT_MS;
  }

  /** Open (or return the already opened) viewer for a session. */
  open(session: Session, viewerCommand?: ViewerCommand): Promise<ViewerStatus> {
    const existing = this.entries.get(session.id);
    if (existing !== undefined) return existing.status;
    const entry: Entry = { viewer: undefined, status: Promise.resolve({ requested: true, open: false }) };
    entry.status = this.launch(session, viewerCommand, entry)
      .catch(
        (error: unknown): ViewerStatus => ({
          requested: true,
          open: false,
          reason: `viewer failed: ${error instanceof Error ? error.message : String(error)}`,
        }),
      )
      .then((status) => {
        if (!status.open) this.forget(session.id, entry);
        log(
          status.open
            ? `viewer for ${session.id} open in ${status.terminal}`
            : `no viewer for ${session.id}: ${status.reason}`,
        );
        return status;
      });
    this.entries.set(session.id, entry);
    return entry.status;
  }

  async close(sessionId: string): Promise<void> {
    await this.entries.get(sessionId)?.viewer?.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((entry) => entry.viewer?.close()));
  }

  private async launch(
    session: Session,
    viewerCommand: ViewerCommand | undefined,
    entry: Entry,
  ): Promise<ViewerStatus> {
    if (session.state === "exited")
      return { requested: true, open: false, reason: `session ${session.id} has already exited` };
    const strategy = chooseStrategy({ platform: this.platform, env: this.env, viewerCommand });
    if ("reason" in strategy) return { requested: true, open: false, reason: strategy.reason };
    const dir = createViewerDir();
    const viewer = new Viewer(session, dir, definedEnv(this.env), () => this.forget(session.id, entry));
    entry.viewer = viewer;
    this.installExitHook();
    const plans = strategy.build({
      fifo: dir.fifo,
      reader: dir.reader,
      title: viewerTitle(session),
      cols: session.cols,
      rows: session.rows,
    });
    return viewer.launch(plans, this.attachTimeoutMs);
  }

  private forget(sessionId: string, entry: Entry): void {
    if (this.entries.get(sessionId) === entry) this.entries.delete(sessionId);
    if (this.entries.size === 0 && this.exitHookInstalled) {
      process.off("exit", this.onProcessExit);
      this.exitHookInstalled = false;
    }
  }

  private installExitHook(): void {
    if (this.exitHookInstalled) return;
    process.on("exit", this.onProcessExit);
    this.exitHookInstalled = true;
  }
}

function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) out[key] = value;
  return out;
}
