/**
 * After a wait matched: let the program finish the write burst the match fell in, so the call (and
 * a script's next step) does not start on a half-drawn frame. A TUI often draws one screen in several
 * writes (htop: the function bar, then the panel above it); the match can land between them.
 *
 * The burst is over when everything the program wrote is parsed, no synchronized update is open, and
 * either the ready oracle sees the program back at rest (its own look, made at once) with no output
 * for REST_QUIET_MS (10 ms), or its output has been quiet for FRAME_QUIET_MS; at most FRAME_FINISH_MS.
 */
import { readyOracle } from "./ready/oracle.ts";
import type { Session } from "./session.ts";

/** Longest a wait stays after its match for the burst to end. */
export const FRAME_FINISH_MS = 300;
/** This long without output ends the burst (the oracle does not know, or sees the program busy). */
export const FRAME_QUIET_MS = 40;
/**
 * With the program seen at rest: this long without output first. Not less: the oracle can take a short
 * sleep inside a burst for the rest it learnt (a python program's 20 ms sleep between two writes,
 * after a wait_for_idle), and a burst split by less than this is waited out whatever the oracle says.
 */
const REST_QUIET_MS = 10;
/** Gap between looks while output is quiet (each output looks again at once). */
const LOOK_MS = 5;

export interface FrameFinish {
  /** Milliseconds waited after the match. */
  ms: number;
  /** True when FRAME_FINISH_MS passed with the program still writing. */
  unfinished: boolean;
}

export async function finishFrame(session: Session, signal?: AbortSignal): Promise<FrameFinish> {
  const started = performance.now();
  const deadline = started + FRAME_FINISH_MS;
  const oracle = readyOracle(session);
  const over = (): boolean => {
    const emulator = session.emulator;
    if (!session.running) return true;
    if (emulator.pendingBytes > 0 || session.outputBacklog > 0 || emulator.syncHeld) return false;
    const quietFor = performance.now() - session.lastOutputAt;
    if (quietFor >= FRAME_QUIET_MS) return true;
    return quietFor >= REST_QUIET_MS && oracle.atRestNow()?.atRest === true;
  };
  let unfinished = false;
  while (!over()) {
    if (signal?.aborted || performance.now() >= deadline) {
      unfinished = !signal?.aborted;
      break;
    }
    await nextOutputOr(session, Math.min(LOOK_MS, deadline - performance.now()));
  }
  await session.emulator.flushed();
  return { ms: Math.round(performance.now() - started), unfinished };
}

/** Resolves on the next output chunk, parse or exit, or after `ms`. */
function nextOutputOr(session: Session, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const offs: (() => void)[] = [];
    const done = () => {
      for (const off of offs) off();
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    offs.push(session.onOutput(done), session.emulator.onParsed(done), session.onExit(done));
  });
}
