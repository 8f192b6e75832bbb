/**
 * --record-failures: an asciicast of each test attempt, kept only when the attempt fails.
 * This build has no session recorder yet (src/record/, issue 12), so every attempt reports
 * why there is no recording; the runner's calls stay the same once one exists.
 */
import type { Session } from "../session/session.ts";
import type { TestCase } from "./load.ts";

export interface TestRecorder {
  /** Called right after the session starts; `finish(passed)` keeps or drops the file. */
  start(session: Session, test: TestCase, attempt: number): { finish(passed: boolean): { path?: string; unavailable?: string } | undefined };
}

export const RECORDING_UNAVAILABLE = "recording unavailable: this build of tui-tester has no session recorder (asciicast), so --record-failures keeps nothing";

export function createRecorder(): TestRecorder {
  return {
    start() {
      return { finish: (passed) => (passed ? undefined : { unavailable: RECORDING_UNAVAILABLE }) };
    },
  };
}
