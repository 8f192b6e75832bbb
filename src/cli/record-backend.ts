/**
 * The session recorder --record-failures uses. This branch has none (src/record/ arrives with
 * issue 12); once it is merged this becomes:
 *
 *   import { recordingStats, startRecording, stopRecording } from "../record/recorder.ts";
 *   export const recorderBackend: RecorderBackend | undefined = {
 *     start: (session, path) => (recordingStats(session)?.closed === false ? false : (startRecording(session, { path }), true)),
 *     stop: (session) => stopRecording(session).path,
 *   };
 */
import type { RecorderBackend } from "./recording.ts";

export const recorderBackend: RecorderBackend | undefined = undefined;
