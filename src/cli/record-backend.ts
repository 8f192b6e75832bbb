/** The session recorder --record-failures uses: the asciicast recorder of src/record/. */
import { dirname } from "node:path";
import { recordingStats, startRecording, stopRecording } from "../record/recorder.ts";
import type { RecorderBackend } from "./recording.ts";

export const recorderBackend: RecorderBackend | undefined = {
  start: (session, path) => (recordingStats(session)?.closed === false ? false : (startRecording(session, { path, dir: dirname(path), cwd: dirname(path) }), true)),
  stop: (session) => stopRecording(session).path,
};
