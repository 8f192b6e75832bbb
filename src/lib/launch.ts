/** launch(): start a program in a PTY and return its Terminal. One session registry per process. */
import { TuiError } from "../errors.ts";
import { planRecording } from "../record/recorder.ts";
import { SessionRegistry } from "../session/registry.ts";
import { track } from "./cleanup.ts";
import { Terminal } from "./terminal.ts";

export interface LaunchOptions {
  args?: string[];
  /** Default: the current directory. */
  cwd?: string;
  /** Merged over this process's environment. */
  env?: Record<string, string>;
  /** Default 80. */
  cols?: number;
  /** Default 24. */
  rows?: number;
  /** TERM. Default "xterm-256color". */
  term?: string;
  /** Shown in recordings' titles. */
  name?: string;
  /** Record asciicast v2 from the first byte: true (a new file in the output directory) or a .cast path. */
  record?: boolean | string;
  /**
   * Close the terminal when the bun test (or beforeEach) that launched it finishes. Default true.
   * Pass false for a terminal launched in beforeAll and close it in afterAll; it is still killed
   * when the process exits.
   */
  autoClose?: boolean;
}

let registry: SessionRegistry | undefined;

/** The process's sessions: limits and theme from the TUI_TESTER_* variables, as the server reads them. */
function sessions(): SessionRegistry {
  registry ??= new SessionRegistry();
  return registry;
}

export async function launch(command: string, options: LaunchOptions = {}): Promise<Terminal> {
  if (typeof command !== "string" || command.length === 0) {
    throw new TuiError("INVALID_ARGUMENT", "launch needs a command.", 'Pass a program on PATH or a path, e.g. launch("htop").');
  }
  const cols = size("cols", options.cols ?? 80, 1000);
  const rows = size("rows", options.rows ?? 24, 500);
  const args = options.args ?? [];
  if (!Array.isArray(args) || args.some((arg) => typeof arg !== "string")) {
    throw new TuiError("INVALID_ARGUMENT", "args must be an array of strings.", 'Example: launch("less", { args: ["-N", "file.txt"] }).');
  }
  // A bad recording path fails before anything is spawned.
  const recording = planRecording({ record: options.record });
  const start = { command, args, cwd: options.cwd, env: options.env, cols, rows, term: options.term ?? "xterm-256color", name: options.name };
  const session = await sessions().start(start);
  const started = recording.apply(session).recording as { error?: string } | undefined;
  const terminal = new Terminal(session, sessions());
  track(terminal, options.autoClose ?? true);
  if (started?.error) {
    await terminal.close({ graceMs: 0 });
    throw new TuiError("INVALID_ARGUMENT", `Could not start the recording: ${started.error}`, "Pass a record path in a writable directory.");
  }
  return terminal;
}

function size(name: string, value: number, max: number): number {
  if (Number.isInteger(value) && value >= 1 && value <= max) return value;
  throw new TuiError("INVALID_ARGUMENT", `${name} ${value} is not an integer from 1 to ${max}.`, `Pass ${name} in cells, e.g. { cols: 80, rows: 24 }.`);
}
