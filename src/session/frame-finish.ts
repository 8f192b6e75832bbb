/**
 * After a wait matched: let the program finish the write burst the match fell in, so the call (and
 * a script's next step) does not start on a half-drawn frame. A TUI often draws one screen in several
 * writes (htop: the function bar, then the panel above it); the match can land between them.
 *
 * The burst is over when everything the program wrote is parsed, no synchronized update is open, and
 * a look at the program (the ready oracle's, made at once) finds it waiting for input again (read,
 * poll, select, epoll) with all it wrote since the match read (by its byte counters, or a fence
 * raised behind its output: output-fence.ts), after INPUT_QUIET_MS without output,
 * or not running after FRAME_QUIET_MS; where it cannot be looked at, after BLIND_QUIET_MS without
 * output. At most FRAME_FINISH_MS.
 *
 * A match on text that was on screen before the input (htop's "F2Setup" key label, there before F2
 * was pressed) can come before the program has even read the input: it is back in read() with
 * nothing new written, which looks like a finished frame. So while nothing has been written since
 * the latest input, the burst is not over until ANSWER_WAIT_MS have passed since that input.
 *
 * Quiet alone is not trusted where the program can be looked at: on a loaded machine a writer can go
 * unscheduled for tens of milliseconds in the middle of a frame, and a program may sleep between two
 * writes. Nor is the rest the oracle learnt: a settle that ran while the program slept inside its
 * burst takes that sleep for its rest.
 */
import { FenceDrain } from "./output-fence.ts";
import { foregroundActivity } from "./ready/oracle.ts";
import type { Session } from "./session.ts";

/** Longest a wait stays after its match for the burst to end. */
export const FRAME_FINISH_MS = 300;
/** Without output this long, a program that waits for input again has finished its burst. */
const INPUT_QUIET_MS = 10;
/** Without output this long, a program that does not run has finished (a sleep this long is no burst). */
export const FRAME_QUIET_MS = 100;
/**
 * After an input with no output since, this long ends the wait for the program's answer (a key it
 * ignores has none); a loaded machine can leave a program unscheduled for over FRAME_QUIET_MS.
 */
const ANSWER_WAIT_MS = 200;
/** Where the program cannot be looked at (no /proc): this long without output ends the burst. */
const BLIND_QUIET_MS = 40;
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
  let queuedAt = 0;
  // What the program had written, and we had read, when the match was seen: what it writes from here
  // on must have reached us before the frame is taken as done (the reader can lag on a loaded machine).
  const base = { wchar: foregroundActivity(session)?.wchar, bytes: session.bytesOut };
  // Taken before the program's answer to the input arrived, the base may already count answer bytes
  // still on their way to us: then "all it wrote since is read" proves nothing, and a fence decides.
  const baseBeforeAnswer = session.lastOutputAt < session.lastInputAt;
  const counted = (wchar: number) =>
    !baseBeforeAnswer && (base.wchar === undefined || session.bytesOut - base.bytes >= wchar - base.wchar);
  // Its writes to files and pipes count in wchar too: a fence raised behind its output says it is in.
  const fenced = new FenceDrain(session.fence);
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
    // no answer to the latest input yet: its burst has not begun
    if (session.lastOutputAt < session.lastInputAt) return now - session.lastInputAt >= ANSWER_WAIT_MS;
    const quietFor = now - Math.max(session.lastOutputAt, queuedAt);
    if (quietFor < INPUT_QUIET_MS) return false;
    const activity = foregroundActivity(session);
    if (activity === undefined) return quietFor >= BLIND_QUIET_MS;
    if (activity.running) return false;
    if (activity.input && (counted(activity.wchar) || fenced.drained(activity.writes))) return true;
    // Quiet proves nothing while a fence is on its way: the reader may lag behind the program.
    return quietFor >= FRAME_QUIET_MS && !(activity.input && fenced.coming(activity.writes));
  };
  let unfinished = false;
  for (;;) {
    // Judged twice, a turn of the event loop apart: after a stall of the server (a loaded machine) a
    // timer can run before output that already arrived is handed over.
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
  // at the bound the screen is taken as parsed so far: under a flood, parsing the rest could take long
  if (!unfinished) await session.emulator.flushed();
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
