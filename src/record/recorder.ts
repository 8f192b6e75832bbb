/**
 * One asciicast recording per session, fed by the session's output, resize and input events.
 * It closes itself when the session exits (stop_session, a crash, server shutdown), and its
 * statistics stay readable for stop_recording afterwards.
 */
import { TuiError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { artifactPath, assertDirectory, stamp } from "../util/artifact-path.ts";
import { log } from "../util/log.ts";
import { AsciicastWriter } from "./asciicast.ts";

export interface RecordingStats {
  path: string;
  events: number;
  bytes: number;
  durationMs: number;
  /** False while the recording is still being written. */
  closed: boolean;
  /** The file reached its size cap and later events were dropped. */
  truncated: boolean;
}

export interface RecordOptions {
  /** File path (relative to the server's cwd); default: a new file in `dir`. */
  path?: string;
  /** Where a recording without a path goes: TUI_TESTER_RECORD_DIR, else the output directory. */
  dir: string;
  /** What a relative `path` is relative to: the server's working directory. */
  cwd: string;
  /** Also record what is typed into the program as `i` events. */
  includeInput?: boolean;
  /** Replace an existing file at `path` (refused otherwise). */
  overwrite?: boolean;
}

class Recording {
  private readonly writer: AsciicastWriter;
  private readonly unsubscribe: (() => void)[];
  private durationMs: number | undefined;

  constructor(session: Session, path: string, includeInput: boolean) {
    try {
      this.writer = new AsciicastWriter(path, {
        width: session.cols,
        height: session.rows,
        term: session.config.term,
        title: session.name ?? `${session.config.command} ${session.config.args.join(" ")}`.trim(),
      });
    } catch (error) {
      throw new TuiError(
        "INVALID_ARGUMENT",
        `Cannot write the recording to "${path}": ${error instanceof Error ? error.message : String(error)}`,
        "Pass a path in a writable directory.",
      );
    }
    // Started mid-session: begin with a repaint of the current state, so playback starts from what was on screen.
    if (session.bytesOut > 0) this.writer.event("o", session.emulator.serializeScreen(0));
    this.unsubscribe = [
      session.onOutput((chunk) => this.writer.bytesEvent("o", chunk)),
      session.onResize(({ cols, rows }) => this.writer.event("r", `${cols}x${rows}`)),
      session.onExit(() => this.close()),
      ...(includeInput
        ? [
            session.onInput((bytes, _from, secret) => {
              // a secret's keystrokes are never written (its echo, if the app echoes, is output like any other)
              if (!secret) this.writer.bytesEvent("i", bytes);
            }),
          ]
        : []),
    ];
  }

  get open(): boolean {
    return this.writer.open;
  }

  mark(label: string): void {
    this.writer.event("m", label);
  }

  close(): void {
    if (!this.writer.open) return;
    this.durationMs = this.writer.elapsedMs;
    for (const off of this.unsubscribe) off();
    this.writer.close();
    log(`recording closed: ${this.writer.path} (${this.writer.events} events)`);
  }

  stats(): RecordingStats {
    return {
      path: this.writer.path,
      events: this.writer.events,
      bytes: this.writer.bytes,
      durationMs: Math.round(this.durationMs ?? this.writer.elapsedMs),
      closed: !this.writer.open,
      truncated: this.writer.truncated,
    };
  }
}

declare module "../session/session.ts" {
  interface SessionExtras {
    /** The session's recording, from start_recording until stop_recording. */
    recording: Recording;
    /** Every recording the session has had, newest last, for the web viewer's playback list (bounded). */
    pastRecordings: Recording[];
  }
}
const MAX_PAST_RECORDINGS = 20;

/** The session's recordings, oldest first: the open one and those already stopped. */
export function sessionRecordings(session: Session): RecordingStats[] {
  return (session.extras.pastRecordings ?? []).map((r) => r.stats());
}

export function startRecording(session: Session, options: RecordOptions): RecordingStats {
  const current = session.extras.recording;
  if (current?.open) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Session ${session.id} is already recording to ${current.stats().path}.`,
      "Call stop_recording first to start a new file.",
    );
  }
  session.assertRunning();
  const name = `${session.id}-${stamp()}.cast`;
  const path = artifactPath(options.path, options.dir, name, options.cwd, options.overwrite);
  const recording = new Recording(session, path, options.includeInput ?? false);
  session.extras.recording = recording;
  session.extras.pastRecordings = [...(session.extras.pastRecordings ?? []), recording].slice(-MAX_PAST_RECORDINGS);
  return recording.stats();
}

/** Close the session's recording (if still open) and return its figures; also works after the session exited. */
export function stopRecording(session: Session): RecordingStats {
  const recording = session.extras.recording;
  if (recording === undefined) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Session ${session.id} is not being recorded.`,
      "Start one with start_recording, or start_session with record: true.",
    );
  }
  recording.close();
  session.extras.recording = undefined;
  return recording.stats();
}

/** Write a marker (asciicast `m` event), e.g. to label a step of a script. */
export function markRecording(session: Session, label: string): RecordingStats {
  const recording = session.extras.recording;
  if (!recording?.open) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Session ${session.id} is not being recorded, so there is nothing to mark.`,
      "Start one with start_recording, or start_session with record: true.",
    );
  }
  recording.mark(label);
  return recording.stats();
}

export function recordingStats(session: Session): RecordingStats | undefined {
  return session.extras.recording?.stats();
}

/**
 * start_session's `record` option (true or a path) and TUI_TESTER_RECORD_DIR. Paths are checked
 * before the program is spawned, so a bad one costs no session; `apply` runs right after spawn,
 * before any output has been read, and returns what to add to the session info. A recording that
 * cannot start throws: the caller stops the session and fails, as the recording was asked for.
 */
export function planRecording(
  args: { record?: boolean | string },
  dirs: { recordDir?: string; outputDir: string; cwd: string },
): { apply(session: Session): Record<string, unknown> } {
  const envDir = dirs.recordDir;
  // Checked at start-up too; this catches a directory removed since.
  if (envDir !== undefined && args.record !== false) assertDirectory(envDir, "TUI_TESTER_RECORD_DIR");
  const dir = envDir ?? dirs.outputDir;
  const explicit =
    typeof args.record === "string" ? artifactPath(args.record, dir, "unused.cast", dirs.cwd) : undefined;
  const wanted = args.record === true || explicit !== undefined || (envDir !== undefined && args.record !== false);
  return {
    apply(session) {
      if (!wanted) return {};
      try {
        return { recording: { path: startRecording(session, { path: explicit, dir, cwd: dirs.cwd }).path } };
      } catch (error) {
        return { recording: { error: error instanceof Error ? error.message : String(error) } };
      }
    },
  };
}
