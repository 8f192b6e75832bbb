/** What a session is started with: the program, its terminal and the engine's settings for it. */
import type { TerminalTheme } from "../term/types.ts";
import type { LaunchArgs } from "./history-entries.ts";

export type SessionState = "starting" | "running" | "exited";

export interface SessionConfig {
  id: string;
  name?: string;
  file: string;
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
  term: string;
  rawBufferBytes: number;
  scrollback: number;
  theme?: Partial<TerminalTheme>;
  /** Font files its pictures may use besides the bundled ones (TUI_TESTER_FONTS, checked by config.ts). */
  fonts?: readonly string[];
  /** quiet: never use the ready oracle (TUI_TESTER_READY); default auto. */
  ready?: "auto" | "quiet";
  /** start_session's arguments as the agent gave them (the input history writes them into a test). */
  launch?: LaunchArgs;
}

/** The launch a saved test replays: start_session's arguments as given, or else the config's own. */
export function launchOf(config: SessionConfig): LaunchArgs {
  return (
    config.launch ?? {
      command: config.command,
      args: config.args,
      cwd: config.cwd,
      cols: config.cols,
      rows: config.rows,
      term: config.term,
    }
  );
}
