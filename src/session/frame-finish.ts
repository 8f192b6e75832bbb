/**
 * After a wait matched: let the program finish the write burst the match fell in, so the call (and
 * a script's next step) does not start on a half-drawn frame. A TUI often draws one screen in several
 * writes (htop: the function bar, then the panel above it); the match can land between them.
 *
 * The burst is over when everything the program wrote is parsed, no synchronized update is open, and
 * either the ready oracle sees the program back at rest (its own look, made at once) with no output
 * for REST_QUIET_MS (10 ms), or its output has been quiet for FRAME_QUIET_MS while none of its threads
 * runs (a writer a loaded machine has not scheduled is still mid-burst); at most FRAME_FINISH_MS.
 */
import { foregroundRunning, readyOracle } from "./ready/oracle.ts";
import type { Session } from "./session.ts";

/** Longest a wait stays after its match for the burst to end. */
export const FRAME_FINISH_MS = 300;
/** This long without output ends the burst (the oracle does not know, or sees the program busy). */
export const FRAME_QUIET_MS = 40;
/**
 * No settle is run here to learn a rest the oracle does not know yet: one that starts while the program
 * sleeps inside its burst takes that sleep for its rest, and every later burst would then be cut there.
 *
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
  let queuedAt = 0;
  const over = (): boolean => {
    const emulator = session.emulator;
    if (!session.running) return true;
    const now = performance.now();
    if (emulator.pendingBytes > 0 || session.outputBacklog > 0 || emulator.syncHeld) {
      // Output still queued: the program may be held at the tty (flow control) while it is parsed,
      // so the quiet counts from when the queue was last seen, not from the last bytes read.
      queuedAt = now;
      return false;
    }
    const quietFor = now - Math.max(session.lastOutputAt, queuedAt);
    if (quietFor < REST_QUIET_MS) return false;
    // quiet while the program runs is a writer waiting for the CPU, not a finished frame
    if (quietFor >= FRAME_QUIET_MS) return foregroundRunning(session) !== true;
    return oracle.atRestNow()?.atRest === true;
  };
  let unfinished = false;
  for (;;) {
    // Quiet is judged twice, a turn of the event loop apart: after a stall of the server (a loaded
    // machine) the timer can run before output that already arrived is handed over.
    if (over()) {
      await new Promise((resolve) => setImmediate(resolve));
      if (over()) break;
    }
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
