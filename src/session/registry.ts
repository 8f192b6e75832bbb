/** Owns every session: ids, limits, start, stop with escalation, pruning, shutdown. */
import { clip } from "../util/clip.ts";
import { TuiError } from "../errors.ts";
import {
  deliverSignal,
  descendants,
  OWNER_VARIABLE,
  processRunning,
  resolveCommand,
  selectBackend,
  type PtyBackend,
} from "../pty/index.ts";
import { type Config, DEFAULT_CONFIG } from "../config.ts";
import { log } from "../util/log.ts";
import { fakeClockEnv } from "./fake-clock.ts";
import { baseEnv, createIsolatedHome, type IsolatedHome } from "./isolation.ts";
import type { LaunchArgs } from "./history-entries.ts";
import { describeExit, type ExitInfo } from "./exit-info.ts";
import { Session } from "./session.ts";
import { SESSION_VARIABLE } from "./ready/group-members.ts";
import { readyOracle } from "./ready/oracle.ts";

export interface StartOptions {
  command: string;
  args: string[];
  cwd?: string;
  /** Over the server's environment; null removes a variable. */
  env?: Record<string, string | null>;
  /** A fresh HOME, XDG directories and TMPDIR, removed when the session ends; an allowlisted environment. */
  isolate?: boolean;
  /** Server variables to pass although credential-like (or, isolated, outside the allowlist). */
  passEnv?: string[];
  cols: number;
  rows: number;
  term: string;
  name?: string;
  /** Wall clock through libfaketime (fake-clock.ts): an ISO instant, frozen there; "@<instant>" ticks from it. */
  clock?: string;
}

/**
 * The settings a registry follows: session limits, what each session keeps, the stop grace, the
 * theme queries are told, the PTY backend and the fonts of its pictures.
 */
export type RegistryLimits = Pick<
  Config,
  | "maxSessions"
  | "maxExitedKept"
  | "rawBufferBytes"
  | "scrollback"
  | "killGraceMs"
  | "theme"
  | "pty"
  | "ready"
  | "fonts"
>;

/** How long stop lets a session's output drain before hanging up on it when it is flooding. */
const FLOOD_DRAIN_MS = 150;
/** Unparsed output at which a session counts as flooding (a quarter of the flow-control mark). */
const FLOODING_BACKLOG_BYTES = 256 * 1024;

export interface StopResult {
  sessionId: string;
  alreadyExited: boolean;
  signalsSent: string[];
  escalated: boolean;
  exit: ExitInfo;
}

export class SessionRegistry {
  private readonly sessions = new Map<string, Session>();
  private readonly prefix = `tui-${Math.random().toString(36).slice(2, 8)}`;
  private counter = 0;
  private backend: PtyBackend | undefined;
  /** Isolated sessions' homes, removed when the session is stopped or evicted. */
  private readonly homes = new Map<string, IsolatedHome>();

  constructor(readonly limits: RegistryLimits = DEFAULT_CONFIG) {}

  async start(options: StartOptions): Promise<Session> {
    const live = this.live();
    if (live.length >= this.limits.maxSessions) {
      throw new TuiError(
        "LIMIT_REACHED",
        `${live.length} sessions are running, the limit is ${this.limits.maxSessions} (TUI_TESTER_MAX_SESSIONS).`,
        `Stop one with stop_session (running: ${live.map((s) => s.id).join(", ")}), or raise TUI_TESTER_MAX_SESSIONS.`,
      );
    }
    const home = options.isolate ? createIsolatedHome() : undefined;
    try {
      return await this.spawn(options, home);
    } catch (error) {
      home?.remove();
      throw error;
    }
  }

  private async spawn(options: StartOptions, home: IsolatedHome | undefined): Promise<Session> {
    const env = childEnv(options, home);
    if (options.clock !== undefined) Object.assign(env, fakeClockEnv(options.clock, env.LD_PRELOAD));
    const cwd = options.cwd ?? process.cwd();
    const file = resolveCommand(options.command, cwd, env);
    this.backend ??= await selectBackend(this.limits.pty);
    const id = `${this.prefix}-${++this.counter}`;
    // The session's mark: the ready oracle knows a daemon that left the session by it (group-members.ts).
    env[SESSION_VARIABLE] = id;
    let session: Session;
    try {
      session = await Session.start(
        {
          id,
          name: options.name,
          file,
          command: options.command,
          args: options.args,
          cwd,
          env,
          cols: options.cols,
          rows: options.rows,
          term: options.term,
          rawBufferBytes: this.limits.rawBufferBytes,
          scrollback: this.limits.scrollback,
          theme: this.limits.theme,
          ready: this.limits.ready,
          fonts: this.limits.fonts,
          launch: launchArgs(options, cwd),
        },
        this.backend,
      );
    } catch (error) {
      throw new TuiError(
        "SPAWN_FAILED",
        `Could not start "${options.command}": ${error instanceof Error ? error.message : String(error)}`,
        "Check the command, args and cwd.",
      );
    }
    this.sessions.set(id, session);
    if (home) this.homes.set(id, home);
    readyOracle(session); // from the start: it sees the start-up queries the first-input gate waits on
    session.onExit(() => this.prune());
    log(`started ${id} pid ${session.pid}: ${options.command} ${options.args.join(" ")}`);
    return session;
  }

  get(id: string): Session {
    const session = this.sessions.get(id);
    if (session !== undefined) return session;
    const byName = [...this.sessions.values()].find((s) => s.name === id);
    const known = [...this.sessions.values()].map((s) => `${s.id}${s.name ? ` (${s.name})` : ""} [${s.state}]`);
    throw new TuiError(
      "SESSION_NOT_FOUND",
      `Session not found: no session with id "${clip(id, 80)}".`,
      byName
        ? `"${id}" is the name of session ${byName.id}; pass that id as sessionId.`
        : known.length > 0
          ? `Known sessions: ${known.join(", ")}. Use list_sessions to see them.`
          : "No sessions exist; start one with start_session.",
    );
  }

  list(): Session[] {
    return [...this.sessions.values()];
  }

  live(): Session[] {
    return this.list().filter((s) => s.state !== "exited");
  }

  /**
   * Stop as a closing terminal does: the requested signal and a hang-up (SIGHUP) to the process group
   * and to descendants that left it (setsid children, found by walking the process tree now, while
   * they are still linked to the session), then SIGKILL to whatever is left after the grace period.
   * Resolves once the process is really gone. A double-forked daemon is no longer a descendant, so
   * it escapes (src/pty/process-tree.ts).
   */
  async stop(id: string, signal: NodeJS.Signals = "SIGTERM", graceMs = this.limits.killGraceMs): Promise<StopResult> {
    const session = this.get(id);
    if (session.exit !== null) {
      this.release(id);
      return { sessionId: id, alreadyExited: true, signalsSent: [], escalated: false, exit: session.exit };
    }
    const strays = descendants(session.pid);
    const signalsSent: string[] = [];
    const send = (sig: NodeJS.Signals) => {
      const delivered = session.signal(sig);
      for (const pid of strays) deliverSignal(pid, sig);
      if (delivered) signalsSent.push(sig);
    };
    send(signal);
    if (signal !== "SIGKILL" && signal !== "SIGHUP") send("SIGHUP");
    const deadline = performance.now() + graceMs;
    const exited = session.whenExited().then(() => true);
    // A flood's exit is reported only after its backlog is parsed; past a short drain window, a
    // session still that far behind is hung up instead (its unparsed output counted as dropped).
    const drained = await Promise.race([exited, Bun.sleep(Math.min(FLOOD_DRAIN_MS, graceMs)).then(() => false)]);
    if (!drained && session.outputBacklog >= FLOODING_BACKLOG_BYTES) session.hangUp();
    const exitedInGrace =
      drained || (await Promise.race([exited, Bun.sleep(Math.max(0, deadline - performance.now())).then(() => false)]));
    let escalated = false;
    if (!exitedInGrace && signal !== "SIGKILL") {
      escalated = true;
      send("SIGKILL");
    }
    const exit = await session.whenExited();
    await killStragglers(strays, deadline);
    this.release(id);
    log(`stopped ${id}: ${describeExit(exit)}`);
    return { sessionId: id, alreadyExited: false, signalsSent, escalated, exit };
  }

  /** Kill every live session; used on server exit. */
  async shutdown(graceMs = 500): Promise<void> {
    await Promise.all(this.live().map((s) => this.stop(s.id, "SIGTERM", graceMs).catch(() => undefined)));
    for (const session of this.sessions.values()) {
      session.dispose();
      this.release(session.id);
    }
  }

  /** The session's isolated home, if it has one (its HOME, XDG and TMPDIR directories). */
  isolatedRoot(id: string): string | undefined {
    return this.homes.get(id)?.root;
  }

  /** An ended session's isolated home goes: nothing of one run reaches the next. */
  private release(id: string): void {
    this.homes.get(id)?.remove();
    this.homes.delete(id);
  }

  private prune(): void {
    const exited = this.list().filter((s) => s.state === "exited");
    for (const old of exited.slice(0, Math.max(0, exited.length - this.limits.maxExitedKept))) {
      old.dispose();
      this.sessions.delete(old.id);
      this.release(old.id);
    }
  }
}

/** Descendants that outlived the session get until the deadline to go, then SIGKILL. A zombie has gone. */
async function killStragglers(pids: number[], deadline: number): Promise<void> {
  let alive = pids.filter(processRunning);
  while (alive.length > 0 && performance.now() < deadline) {
    await Bun.sleep(5);
    alive = alive.filter(processRunning);
  }
  for (const pid of alive) deliverSignal(pid, "SIGKILL");
}

/** start_session's arguments as given, for save_test (the env is only what the caller set). */
function launchArgs(options: StartOptions, cwd: string): LaunchArgs {
  const { command, args, cols, rows, term, env, clock, isolate, passEnv } = options;
  return {
    command,
    args,
    cwd,
    cols,
    rows,
    term,
    ...(env ? { env } : {}),
    ...(clock !== undefined ? { clock } : {}),
    ...(isolate !== undefined ? { isolate } : {}),
    ...(passEnv?.length ? { passEnv } : {}),
  };
}

/** The base environment (isolation.ts), the caller's env over it, and TERM from the `term` option. */
function childEnv(options: StartOptions, home: IsolatedHome | undefined): Record<string, string> {
  const overrides = options.env ?? {};
  const env = baseEnv(process.env, { env: overrides, passEnv: options.passEnv, home: home?.env });
  if (overrides.TERM !== null) env.TERM = overrides.TERM ?? options.term;
  if (overrides.COLORTERM === undefined) env.COLORTERM ??= "truecolor";
  // The server's watchdog mark is not the caller's to change: it is how a killed server's strays are found.
  const owner = process.env[OWNER_VARIABLE];
  if (owner !== undefined) env[OWNER_VARIABLE] = owner;
  return env;
}
