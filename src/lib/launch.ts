/** launch(): start a program in a PTY and return its Terminal. One session registry per process. */
import { TuiError } from "../errors.ts";
import { parseConfig, type Config } from "../config.ts";
import { planRecording } from "../record/recorder.ts";
import { SessionRegistry } from "../session/registry.ts";
import { MAX_COLS, MAX_ROWS } from "../term/size.ts";
import { OutputDir } from "../util/artifact-path.ts";
import { setLogLevel } from "../util/log.ts";
import { track } from "./cleanup.ts";
import { Terminal } from "./terminal.ts";

export interface LaunchOptions {
  args?: string[];
  /** Default: the current directory. */
  cwd?: string;
  /** Merged over this process's environment (credential-like variables left out); null removes a variable. */
  env?: Record<string, string | null>;
  /**
   * A fresh HOME, XDG directories and TMPDIR for the program, removed when it is closed, and an
   * environment of only PATH, LANG, LC_*, TZ, USER, LOGNAME, passEnv and env. Default false.
   */
  isolate?: boolean;
  /** This process's variables to pass although credential-like (*_TOKEN, *_API_KEY, ...) or not allowlisted. */
  passEnv?: string[];
  /** Default 80. */
  cols?: number;
  /** Default 24. */
  rows?: number;
  /** TERM. Default "xterm-256color". */
  term?: string;
  /** Shown in recordings' titles. */
  name?: string;
  /**
   * The program's wall clock, through libfaketime (Linux, dynamically linked programs): an ISO
   * date-time or a Date, frozen there; "@<date-time>" (or freezeClock: false) ticks on from it.
   */
  clock?: string | Date;
  freezeClock?: boolean;
  /** Record asciicast v2 from the first byte: true (a new file in the output directory) or a .cast path. */
  record?: boolean | string;
  /**
   * Close the terminal when the bun test (or beforeEach) that launched it finishes. Default true.
   * Pass false for a terminal launched in beforeAll and close it in afterAll; it is still killed
   * when the process exits.
   */
  autoClose?: boolean;
}

/** What every Terminal of this process shares: the settings, the sessions and the output directory. */
export interface Engine {
  config: Config;
  sessions: SessionRegistry;
  output: OutputDir;
}

let shared: Engine | undefined;

/**
 * Built on the first launch, from the TUI_TESTER_* variables as the server parses them (limits,
 * theme, PTY, directories).
 */
function engine(): Engine {
  if (shared === undefined) {
    // The server's stderr log ("started tui-1 pid ...") is noise in a user's test output: on only when asked.
    const config = parseConfig(process.env, { log: "silent" });
    setLogLevel(config.log);
    shared = { config, sessions: new SessionRegistry(config), output: new OutputDir(config.outputDir) };
  }
  return shared;
}

export async function launch(command: string, options: LaunchOptions = {}): Promise<Terminal> {
  if (typeof command !== "string" || command.length === 0) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      "launch needs a command.",
      'Pass a program on PATH or a path, e.g. launch("htop").',
    );
  }
  const cols = size("cols", options.cols ?? 80, MAX_COLS);
  const rows = size("rows", options.rows ?? 24, MAX_ROWS);
  const args = options.args ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string")) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      "args must be an array of strings.",
      'Example: launch("less", { args: ["-N", "file.txt"] }).',
    );
  }
  // A bad recording path fails before anything is spawned.
  const { config, sessions, output } = engine();
  // The output directory is made only when a recording needs it.
  const recording = planRecording(
    { record: options.record },
    { recordDir: config.recordDir, outputDir: options.record ? output.path : "", cwd: process.cwd() },
  );
  const start = {
    command,
    args,
    cwd: options.cwd,
    env: options.env,
    isolate: options.isolate,
    passEnv: options.passEnv,
    cols,
    rows,
    term: options.term ?? "xterm-256color",
    name: options.name,
    clock: fakeClock(options),
  };
  const session = await sessions.start(start);
  const terminal = new Terminal(session, engine());
  track(terminal, options.autoClose ?? true);
  try {
    recording.apply(session);
  } catch (error) {
    await terminal.close({ graceMs: 0 });
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Could not start the recording: ${error instanceof Error ? error.message : String(error)}`,
      "Pass a record path in a writable directory.",
    );
  }
  return terminal;
}

function size(name: string, value: number, max: number): number {
  if (Number.isInteger(value) && value >= 1 && value <= max) return value;
  throw new TuiError(
    "INVALID_ARGUMENT",
    `${name} ${value} is not an integer from 1 to ${max}.`,
    `Pass ${name} in cells, e.g. { cols: 80, rows: 24 }.`,
  );
}

/** start_session's clock string: an instant (frozen) or "@" and an instant (ticking). */
function fakeClock(options: LaunchOptions): string | undefined {
  const at = options.clock instanceof Date ? options.clock.toISOString() : options.clock;
  if (at === undefined || options.freezeClock !== false || at.startsWith("@")) return at;
  return `@${at}`;
}
