/**
 * Before/after capture around an input: the `screen` block every input tool returns.
 *
 * Settling, when no `waitFor` is given:
 * - explicit `waitAfterMs`: wait exactly that long after the input, then snapshot (fixed).
 * - default on Linux: the ready oracle (ready/oracle.ts, docs/ready-oracle.md). Settle once the
 *   program is back at rest and its output is parsed, at most READY_CAP_MS (`settledBy` idle,
 *   periodic, exit or timeout with what kept it busy).
 * - where the oracle cannot run (no /proc, /proc denied, TUI_TESTER_READY=quiet): the quiet window
 *   (quiet-window.ts, `settledBy` quiet).
 * What the settle did is reported, not assumed: `waitedMs` (actually waited) and `quiet` (false when
 * output was still arriving at the after-snapshot). Output later than that is caught with `waitFor`
 * (a text you expect) or a longer fixed `waitAfterMs`.
 */
import type { Highlight, Snapshot, SnapshotDiff } from "../term/types.ts";
import { diffSnapshots } from "../term/diff.ts";
import { readyOracle, type Busy, type Held, type SettledBy } from "./ready/oracle.ts";
import type { Session } from "./session.ts";
import { isQuiet, quietSettle } from "./quiet-window.ts";
import { compileAll, waitForText, type WaitTextOptions, type WaitTextResult } from "./wait.ts";

/**
 * Upper bound of the oracle's settle. Only a program still working reaches it (an idle one settles
 * in milliseconds), so it can be longer than the quiet window's: 2 s covers answers that take a
 * moment (a REPL computing, a shell command) without making a busy program cost much.
 */
export const READY_CAP_MS = 2000;

export type ScreenDetail = "full" | "diff";

/** How an input is observed: one type for the tools, the library and the engine (observe-input.ts). */
export interface ObserveOptions {
  /** false: no before/after screens and no diff. */
  captureScreen: boolean;
  /** Fixed settle in ms; undefined = adaptive settle (see the top of this file). */
  waitAfterMs?: number;
  /** Wait for this text after the input; with errorOnTimeout a miss throws WAIT_TIMEOUT (observe-input.ts). */
  waitFor?: WaitTextOptions & { errorOnTimeout?: boolean };
  screenDetail: ScreenDetail;
  /** A missed waitFor's error quotes the after-screen in its message (the library: no reply to show it in). */
  quoteScreen?: boolean;
  signal?: AbortSignal;
}

export interface ScreenView {
  text: string;
  lines: string[];
  cursor: Snapshot["cursor"];
  /** Selected items and other emphasis the text cannot show (inverse, background colour, bold). */
  highlights: Highlight[];
  cols: number;
  rows: number;
}

export interface ScreenBlock {
  before?: ScreenView;
  after?: ScreenView;
  diff: SnapshotDiff;
  /** screenDetail "diff" whose changed rows would cost more than the screen: `after` is given instead. */
  fullScreenInstead?: true;
  /** With screenDetail "diff": the after-screen's cursor and highlights. */
  cursor?: Snapshot["cursor"];
  highlights?: Highlight[];
  settle: "adaptive" | "fixed" | "waitFor";
  /** Fixed: the requested wait. Adaptive and waitFor: what was actually waited (= waitedMs). */
  waitAfterMs: number;
  /** Milliseconds actually waited between the input and the after-snapshot. */
  waitedMs: number;
  /**
   * False when the program may still be working at the after-snapshot: not back at rest (oracle), or
   * written to within the last ADAPTIVE_QUIET_MS (quiet window).
   */
  quiet: boolean;
  /**
   * How the settle ended: idle, periodic (back at rest, redrawing on a timer), unsure (back at rest on a
   * short tick that can hide work: not claimed done), quiet, timeout, exit, waitFor, fixed.
   */
  settledBy: SettledBy;
  /** The foreground program judged by the oracle (its command name). */
  program?: string;
  /** unsure: the period of the tick the program rests on, behind which later work cannot be seen. */
  tickMs?: number;
  /** unsure: what may wake the program that no wait shows, in words ("it catches SIGALRM, ..."). */
  unseen?: string;
  /** The first input was held this long, until the program was through its start-up (ready/first-input.ts). */
  held?: Held;
  /** What the program was doing when the settle gave up (or, after fixed/waitFor, at the after-snapshot). */
  busy?: Busy;
  /** Why the quiet window was used instead of the oracle. */
  fallback?: string;
  /**
   * The exit status of the shell command that finished during this input, from OSC 133 prompt marks
   * (fish; bash or zsh with shell integration); null when the mark carried none.
   */
  commandStatus?: number | null;
  totalMs: number;
}

export interface Observed<T> {
  result: T;
  screen?: ScreenBlock;
  waitFor?: Omit<WaitTextResult, "snapshot">;
}

export async function observe<T>(
  session: Session,
  action: () => T | Promise<T>,
  options: ObserveOptions,
): Promise<Observed<T>> {
  // A bad pattern must fail before anything is sent.
  if (options.waitFor) for (const m of compileAll(options.waitFor)) m[Symbol.dispose]();
  const started = performance.now();
  const oracle = readyOracle(session);
  const held = await oracle.holdFirstInput(options.signal);
  const before = options.captureScreen ? await freshView(session) : undefined;
  const adaptive = before !== undefined && !options.waitFor && options.waitAfterMs === undefined;
  const baseline = adaptive ? await oracle.baseline() : undefined;
  const marks = session.running ? session.emulator.promptMarks.finished : 0;
  const actionStart = performance.now();
  const result = await session.asOneInput(action);

  if (options.waitFor) {
    const { snapshot, ...waitFor } = await waitForText(session, options.waitFor, options.signal);
    if (!before) return { result, waitFor };
    const waited = Math.round(performance.now() - actionStart);
    const settle: Settle = {
      settle: "waitFor",
      waitAfterMs: waited,
      waitedMs: waited,
      // a wait the exit ended says so in the settle too (its line would read "Text seen")
      settledBy: waitFor.exited ? "exit" : "waitFor",
      ...restNow(session),
    };
    return {
      result,
      waitFor,
      screen: block(
        before,
        toView(snapshot),
        { ...settle, ...commandStatus(session, marks) },
        started,
        options.screenDetail,
        held,
      ),
    };
  }
  if (!options.captureScreen || !before) return { result };

  let settle: Settle;
  if (options.waitAfterMs !== undefined) {
    await Bun.sleep(Math.max(0, actionStart + options.waitAfterMs - performance.now()));
    const waited = Math.round(performance.now() - actionStart);
    settle = {
      settle: "fixed",
      waitAfterMs: options.waitAfterMs,
      waitedMs: waited,
      settledBy: "fixed",
      ...restNow(session),
    };
  } else {
    const ready =
      baseline !== undefined ? await oracle.settle(baseline, actionStart, READY_CAP_MS, options.signal) : undefined;
    const waited = () => Math.round(performance.now() - actionStart);
    if (ready !== undefined && ready.settledBy !== "quiet") {
      const { settledBy, program, busy, tickMs, unseen } = ready;
      // unsure: back at rest on a short tick that can hide work, so not claimed quiet.
      const quiet = settledBy !== "timeout" && settledBy !== "unsure";
      settle = {
        settle: "adaptive",
        waitAfterMs: waited(),
        waitedMs: waited(),
        quiet,
        settledBy,
        ...(program ? { program } : {}),
        ...(busy ? { busy } : {}),
        ...(tickMs !== undefined ? { tickMs } : {}),
        ...(unseen !== undefined ? { unseen } : {}),
      };
    } else {
      await quietSettle(session, actionStart, options.signal);
      const quiet = isQuiet(session);
      const settledBy: SettledBy = !session.running ? "exit" : quiet ? "quiet" : "timeout";
      const fallback = oracle.unavailable ?? "the oracle could not run";
      settle = { settle: "adaptive", waitAfterMs: waited(), waitedMs: waited(), quiet, settledBy, fallback };
    }
  }
  const after = await freshView(session);
  return {
    result,
    screen: block(before, after, { ...settle, ...commandStatus(session, marks) }, started, options.screenDetail, held),
  };
}

/** What a screen block says of how its settle ended (settle-words.ts words it). */
export type SettleVerdict = Pick<
  ScreenBlock,
  | "waitAfterMs"
  | "waitedMs"
  | "settledBy"
  | "program"
  | "busy"
  | "fallback"
  | "commandStatus"
  | "held"
  | "tickMs"
  | "unseen"
>;

type Settle = SettleVerdict & Pick<ScreenBlock, "settle" | "quiet">;

/** The status of a command that finished (an OSC 133 D mark) since the input, when one did. */
function commandStatus(session: Session, marksBefore: number): Pick<ScreenBlock, "commandStatus"> {
  const marks = session.emulator.promptMarks;
  return marks.finished > marksBefore ? { commandStatus: marks.lastStatus } : {};
}

/** After a fixed or waitFor settle: one look says whether the program is still working (else the quiet window). */
function restNow(session: Session): Pick<ScreenBlock, "quiet" | "busy" | "program"> {
  const now = readyOracle(session).atRestNow();
  if (now === undefined) return { quiet: isQuiet(session) };
  return {
    quiet: now.atRest,
    ...(now.program ? { program: now.program } : {}),
    ...(now.busy ? { busy: now.busy } : {}),
  };
}

/** Flush the parser, let an open synchronized update finish (bounded), then read the screen. */
export async function freshView(session: Session): Promise<ScreenView> {
  return toView(await session.emulator.settledSnapshot({ format: "text", highlights: true })); // it flushes first
}

export function toView(snapshot: Snapshot): ScreenView {
  return {
    text: snapshot.text,
    lines: snapshot.lines,
    cursor: snapshot.cursor,
    highlights: snapshot.highlights ?? [],
    cols: snapshot.cols,
    rows: snapshot.rows,
  };
}

function block(
  before: ScreenView,
  after: ScreenView,
  settled: Settle,
  started: number,
  detail: ScreenDetail,
  held: Held | undefined,
): ScreenBlock {
  const settle = held === undefined ? settled : { ...settled, held };
  const diff = diffSnapshots(before, after);
  const totalMs = Math.round(performance.now() - started);
  // Diff mode is for saving tokens: when the changed rows (both sides) would cost more than the
  // screen itself, as when the whole screen changed, the screen is given instead.
  if (detail === "diff" && diffCostsMore(diff, after))
    return { after, diff, ...settle, totalMs, fullScreenInstead: true };
  if (detail === "diff") return { diff, cursor: after.cursor, highlights: after.highlights, ...settle, totalMs };
  return { before, after, diff, ...settle, totalMs };
}

/** The screen's heading and "(see screen)" note, in characters, which a diff does without. */
const SCREEN_HEADING_CHARS = 40;

/** The changed rows (both sides) would cost more than printing `after` whole. */
export const diffCostsMore = (diff: SnapshotDiff, after: Pick<ScreenView, "text">): boolean =>
  diffSize(diff) > after.text.trimEnd().length + SCREEN_HEADING_CHARS;

/** About the characters a diff's text takes: each changed row's two sides and its row number. */
export function diffSize(diff: SnapshotDiff): number {
  const rows = [
    ...diff.changedLines.map((c) => c.before.trim().length + c.after.length + 8),
    ...[...diff.addedRows, ...diff.removedRows].map((r) => r.text.length + 16),
  ];
  return rows.reduce((sum, n) => sum + n, 0);
}
