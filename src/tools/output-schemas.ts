/**
 * The outputSchema of every tool: the top-level fields of its structuredContent and their types.
 * Loose on purpose: fields are optional and extra fields are allowed, because an error result
 * ({ error, details }) and a reply spilled to a file ({ ..., spilled }) carry the same
 * structuredContent slot, and the SDK client validates whatever is there. A test checks every
 * tool's real output against these.
 */
import * as v from "valibot";

const S = v.string();
const N = v.number();
const B = v.boolean();
const O = v.looseObject({});
const A = v.array(v.unknown());
const NN = v.nullable(N);
const NS = v.nullable(S);

type Field = v.GenericSchema;
const shape = (fields: Record<string, Field>) => v.looseObject(Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, v.optional(s)])));

// sessionId is echoed in most results but not declared: the caller sent it.
const observed = { bytesSent: N, screen: O, waitFor: O };
const view = { text: S, cols: N, rows: N, cursor: O, scrollback: O, highlights: A };

export const outputSchemas: Record<string, v.GenericSchema> = {
  start_session: shape({ sessionId: S, info: O }),
  stop_session: shape({ alreadyExited: B, escalated: B, signalsSent: A, exit: O }),
  list_sessions: shape({ count: N, running: N, maxSessions: N, sessions: A }),
  run_script: shape({ ok: B, stepsRun: N, stoppedAtStep: NN, durationMs: N, results: A, monitor: O, rawOutput: O, finalSnapshot: O }),
  send_keys: shape({ ...observed, keyCount: N }),
  send_text: shape(observed),
  send_raw: shape(observed),
  hold_key: shape({ ...observed, events: N }),
  type_text: shape({ ...observed, chars: N, untyped: N }),
  paste: shape({ ...observed, bracketed: B }),
  mouse: shape({ ...observed, action: S }),
  snapshot: shape({ ...view, lines: A, ansi: S }),
  get_text: shape(view),
  get_cursor: shape({ row: N, col: N, visible: B }),
  wait_for_text: shape({ matched: B, match: v.unknown(), elapsedMs: N, screen: O }),
  wait_for_idle: shape({ idle: B, idleFor: N, elapsedMs: N, screen: O }),
  resize: shape({ ...observed, cols: N, rows: N }),
  start_monitor: shape({ monitorId: S }),
  stop_monitor: shape({ monitorId: S, frameCount: N, droppedFrames: N, truncated: B, frames: A, finalText: S }),
  diff_snapshots: shape({ identical: B, changedLines: A, addedRows: A, removedRows: A }),
  get_exit_info: shape({ exited: B, exitCode: NN, signal: NS, screenTail: S, tail: S }),
  get_raw_output: shape({ output: S, bytes: N, returnedBytes: N, truncated: B }),
  start_recording: shape({ path: S }),
  stop_recording: shape({ path: S, events: N, bytes: N, durationMs: N, truncated: B }),
  mark_recording: shape({ path: S, atMs: N }),
  screenshot: shape({ path: S, format: S, width: N, height: N, bytes: N, inlined: B }),
  web_viewer: shape({ url: S }),
};

/** A tool without an entry above still declares an object output. */
export const anyObject = v.looseObject({});
