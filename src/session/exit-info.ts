/** How a session's process ended, and how that is told to the agent. */
import { TuiError } from "../errors.ts";

export interface ExitInfo {
  exitCode: number | null;
  signal: string | null;
  exitedAt: string;
  /** Milliseconds from spawn to exit. */
  runtimeMs: number;
}

export function describeExit(exit: ExitInfo | null): string {
  if (exit === null) return "still running";
  return exit.signal !== null ? `killed by ${exit.signal}` : `exit code ${exit.exitCode}`;
}

/** The SESSION_EXITED error, carrying the exit info, for input to a session whose process is gone. */
export function sessionExitedError(sessionId: string, exit: ExitInfo | null): TuiError {
  return new TuiError(
    "SESSION_EXITED",
    `Session ${sessionId} has exited (${describeExit(exit)}); it accepts no more input.`,
    "Read what it left with get_exit_info, get_text or get_raw_output, or start a new session with start_session.",
    { exit },
  );
}
