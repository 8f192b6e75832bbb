/**
 * Typed errors raised at the source and rendered at the MCP edge.
 * `message` names the offending value; `hint` names the next tool or parameter to use.
 */
export type ErrorCode =
  | "INVALID_ARGUMENT"
  | "INVALID_KEY"
  | "INVALID_REGEX"
  | "REGEX_TIMEOUT"
  | "SESSION_NOT_FOUND"
  | "SESSION_EXITED"
  | "MONITOR_NOT_FOUND"
  | "LIMIT_REACHED"
  | "SPAWN_FAILED"
  | "WAIT_TIMEOUT"
  | "ASSERTION_FAILED"
  | "MOUSE_NOT_ENABLED"
  | "TEXT_NOT_FOUND"
  | "CANCELLED"
  | "INPUT_BLOCKED"
  | "HUMAN_IN_CONTROL"
  | "FAKETIME_MISSING"
  | "UNSUPPORTED"
  | "HISTORY_FULL"
  | "FILE_EXISTS"
  | "INTERNAL";

export class TuiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly hint?: string,
    /** Extra structured data for the caller (e.g. the screen at a failed wait). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = "TuiError";
  }
}

export function isTuiError(e: unknown): e is TuiError {
  return e instanceof TuiError;
}

/** The request was cancelled by the client (MCP notifications/cancelled). */
export function cancelled(what: string): TuiError {
  return new TuiError(
    "CANCELLED",
    `${what} was cancelled by the client.`,
    "Send the request again if you still need it.",
  );
}

/** Wrap anything thrown into a TuiError without losing its message. */
export function toTuiError(e: unknown): TuiError {
  if (e instanceof TuiError) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new TuiError("INTERNAL", message);
}
