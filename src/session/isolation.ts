/**
 * What a session's program sees of the machine: its environment and, when isolated, a HOME of its own.
 *
 * Every session: the server's credential-like variables (API keys, tokens, passwords, cloud keys) are
 * left out unless the call names them in passEnv or sets them in env, so a program under test never
 * gets the MCP host's secrets by accident.
 * Isolated sessions: the environment is built from an allowlist (PATH, LANG, LC_*, TZ, USER, LOGNAME
 * and what the call passes), and HOME, the XDG directories and TMPDIR point into a fresh directory
 * (mode 0700) that is removed when the session ends, so dotfiles and state kept between runs cannot
 * change what a test sees.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Names that hold secrets by convention: *_API_KEY, *_TOKEN, *_SECRET, *PASSWORD*, AWS_* and kin. */
const CREDENTIAL_NAME =
  /(^|_)(API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|KEY|TOKEN|SECRET|CREDENTIALS?|AUTH)(_|$)|PASSWORD|PASSWD|SECRET|^AWS_|^AZURE_|^GOOGLE_APPLICATION_CREDENTIALS$|^NPM_CONFIG__AUTH/i;

/** What an isolated session keeps of the server's environment (besides passEnv). */
const ALLOWED = /^(PATH|LANG|LC_[A-Z_]+|TZ|USER|LOGNAME)$/;

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/** A session's own HOME, XDG directories and TMPDIR under one temporary root. */
export interface IsolatedHome {
  root: string;
  env: Record<string, string>;
  remove(): void;
}

const liveHomes = new Set<IsolatedHome>();
let exitHook = false;

export function createIsolatedHome(): IsolatedHome {
  const root = mkdtempSync(join(tmpdir(), "tui-tester-home-"));
  const dir = (...parts: string[]) => {
    const path = join(root, ...parts);
    mkdirSync(path, { recursive: true, mode: 0o700 });
    return path;
  };
  const home = dir("home");
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: dir("home", ".config"),
    XDG_DATA_HOME: dir("home", ".local", "share"),
    XDG_CACHE_HOME: dir("home", ".cache"),
    XDG_STATE_HOME: dir("home", ".local", "state"),
    XDG_RUNTIME_DIR: dir("run"),
    TMPDIR: dir("tmp"),
  };
  const isolated: IsolatedHome = {
    root,
    env,
    remove() {
      if (!liveHomes.delete(isolated)) return;
      try {
        rmSync(root, { recursive: true, force: true });
      } catch {
        // a file the program made read-only-by-directory or a mount: left for the system's tmp cleaner
      }
    },
  };
  liveHomes.add(isolated);
  if (!exitHook) {
    exitHook = true;
    // a process that exits with sessions still open (a script, a killed server's normal exit) leaves none behind
    process.on("exit", () => {
      for (const h of [...liveHomes]) h.remove();
    });
  }
  return isolated;
}

/** Isolated homes not removed yet (for tests). */
export function liveIsolatedHomes(): number {
  return liveHomes.size;
}

export interface EnvOptions {
  /** The caller's variables over the base; null removes one. */
  env?: Record<string, string | null>;
  /** Server variables to pass even when credential-like or (isolated) outside the allowlist. */
  passEnv?: string[];
  /** The isolated home's variables, when isolated. */
  home?: Record<string, string>;
}

/** The base environment a session starts from, before TERM and the caller's env. */
export function baseEnv(server: Record<string, string | undefined>, options: EnvOptions): Record<string, string> {
  const pass = new Set(options.passEnv ?? []);
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(server)) {
    if (value === undefined) continue;
    const kept = pass.has(key) || (options.home ? ALLOWED.test(key) : !isCredentialName(key));
    if (kept) env[key] = value;
  }
  Object.assign(env, options.home ?? {});
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === null) delete env[key];
    else env[key] = value;
  }
  return env;
}
