/**
 * --record-failures: each test attempt is recorded as an asciicast into the output directory and
 * the file is kept only when the attempt fails. The recorder is src/record's asciicast recorder,
 * behind a small RecorderBackend so tests can stand in a busy or failing one.
 */
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { recordingStats, startRecording, stopRecording } from "../record/recorder.ts";
import type { Session } from "../session/session.ts";
import type { TestCase } from "./load.ts";

/** What the CLI needs from a session recorder. */
export interface RecorderBackend {
  /**
   * Start writing `path`; returns false when the session is already being recorded elsewhere (TUI_TESTER_RECORD_DIR).
   */
  start(session: Session, path: string): boolean;
  /** Close the file and return its path. */
  stop(session: Session): string;
}

/** A kept recording: its file, and when each step ended on its clock (the report's step markers). */
export interface KeptRecording {
  path?: string;
  unavailable?: string;
  stepEndsMs?: number[];
}

export interface TestRecorder {
  /**
   * Called right after the session starts; `finish(passed)` keeps the file (failed, or always with
   * keep "all") or deletes it. `stepEnds` are performance.now() as each step ended.
   */
  start(
    session: Session,
    test: TestCase,
    attempt: number,
  ): { finish(passed: boolean, stepEnds?: number[]): KeptRecording | undefined };
}

/** src/record's recorder; it declines a session that TUI_TESTER_RECORD_DIR already records. */
export const asciicastBackend: RecorderBackend = {
  start: (session, path) =>
    recordingStats(session)?.closed === false
      ? false
      : (startRecording(session, { path, dir: dirname(path), cwd: dirname(path) }), true),
  stop: (session) => stopRecording(session).path,
};

/** A file name from a test title: letters, digits, '.', '_' and '-' only, bounded. */
export function castName(test: TestCase, attempt: number): string {
  const slug = (s: string) =>
    s
      .replace(/[^A-Za-z0-9._-]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "test";
  return `${slug(test.relFile)}--${slug(test.name)}--attempt-${attempt}.cast`;
}

/** keep "failed": --record-failures and --trace retain-on-failure; "all": --trace on. */
export function createRecorder(
  dir: string,
  backend: RecorderBackend = asciicastBackend,
  keep: "failed" | "all" = "failed",
): TestRecorder {
  return {
    start(session, test, attempt) {
      const path = join(dir, castName(test, attempt));
      let started: boolean;
      const startedAt = performance.now();
      try {
        mkdirSync(dir, { recursive: true });
        started = backend.start(session, path);
      } catch (error) {
        const reason = `recording failed to start: ${error instanceof Error ? error.message : String(error)}`;
        return { finish: (passed) => (passed ? undefined : { unavailable: reason }) };
      }
      return {
        finish(passed, stepEnds) {
          if (!started)
            return passed
              ? undefined
              : { unavailable: "the session was already being recorded (TUI_TESTER_RECORD_DIR); see that directory" };
          const written = backend.stop(session);
          // startedAt is taken just before the file opens, so these err late by well under a millisecond, never early
          const ends =
            stepEnds === undefined ? {} : { stepEndsMs: stepEnds.map((at) => Math.max(0, Math.round(at - startedAt))) };
          if (!passed || keep === "all") return { path: written, ...ends };
          rmSync(written, { force: true });
          return undefined;
        },
      };
    },
  };
}
