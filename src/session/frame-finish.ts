/**
 * After a wait matched: let the program finish the write burst the match fell in, so the call (and
 * a script's next step) does not start on a half-drawn frame. A TUI often draws one screen in several
 * writes (htop: the function bar, then the panel above it); the match can land between them.
 *
 * Done when the program is back at rest and what it wrote is parsed (the ready oracle), or, where
 * the oracle cannot run, when its output has been quiet for FRAME_QUIET_MS; at most FRAME_FINISH_MS.
 * An open synchronized update is waited out too (settledSnapshot).
 */
import { quietPeriod } from "./quiet-window.ts";
import { readyOracle } from "./ready/oracle.ts";
import type { Session } from "./session.ts";

/** Longest a wait stays after its match for the burst to end. */
export const FRAME_FINISH_MS = 300;
/** Without the oracle: this long without output ends the burst. */
export const FRAME_QUIET_MS = 30;

export interface FrameFinish {
  /** Milliseconds waited after the match. */
  ms: number;
  /** True when FRAME_FINISH_MS passed with the program still writing or busy. */
  unfinished: boolean;
}

export async function finishFrame(session: Session, signal?: AbortSignal): Promise<FrameFinish> {
  const started = performance.now();
  let unfinished = false;
  if (session.running) {
    const oracle = readyOracle(session);
    const ready = oracle.available ? await oracle.settle(undefined, started, FRAME_FINISH_MS, signal) : undefined;
    if (ready !== undefined && ready.settledBy !== "quiet") unfinished = ready.settledBy === "timeout";
    // counted from the last output (the match's), not from now: a burst already over costs nothing more
    else unfinished = !(await quietPeriod(session, FRAME_QUIET_MS, FRAME_FINISH_MS, session.lastOutputAt, signal));
  }
  // whatever the program wrote is on the screen, and no synchronized update is left open
  await session.emulator.settledSnapshot({}, Math.max(0, started + FRAME_FINISH_MS - performance.now()));
  return { ms: Math.round(performance.now() - started), unfinished };
}
