/** The session recorder --record-failures and --trace use: src/record/'s asciicast recorder. A rerun replaces its own files. */
import { dirname } from "node:path";
import { recordingStats, startRecording, stopRecording } from "../record/recorder.ts";
import type { RecorderBackend } from "./recording.ts";

export const recorderBackend: RecorderBackend | undefined = {
  start: (session, path) => (recordingStats(session)?.closed === false ? false : (startRecording(session, { path, dir: dirname(path), overwrite: true }), true)),
  stop: (session) => stopRecording(session).path,
};
