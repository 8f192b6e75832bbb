/**
 * Before/after capture around an input: the `screen` block every input tool returns.
 *
 * Settling, when no `waitFor` is given:
 * - explicit `waitAfterMs`: wait exactly that long after the input, then snapshot (fixed).
 * - default: adaptive. Wait for the app's first output after the input, then until output has been
 *   quiet for ADAPTIVE_QUIET_MS, never longer than DEFAULT_WAIT_AFTER_MS in all. An app that redraws
 *   within a millisecond returns in ~25 ms instead of a fixed 150 ms; an app that stays silent
 *   costs the full 150 ms, as before.
 */
import type { Snapshot, SnapshotDiff } from "../term/types.ts";
import { diffSnapshots } from "../term/diff.ts";
import { compileMatcher } from "./matcher.ts";
import type { Session } from "./session.ts";
import { quietPeriod, waitForText, type WaitTextOptions, type WaitTextResult } from "./wait.ts";

export const DEFAULT_WAIT_AFTER_MS = 150;
export const ADAPTIVE_QUIET_MS = 20;

export type ScreenDetail = "full" | "diff";

export interface ObserveOptions {
  captureScreen: boolean;
  /** undefined = adaptive settle bounded by DEFAULT_WAIT_AFTER_MS. */
  waitAfterMs?: number;
  waitFor?: WaitTextOptions;
  screenDetail: ScreenDetail;
  signal?: AbortSignal;
}

export interface ScreenView {
  text: string;
  lines: string[];
  cursor: Snapshot["cursor"];
  cols: number;
  rows: number;
}

export interface ScreenBlock {
  before?: ScreenView;
  after?: ScreenView;
  diff: SnapshotDiff;
  cursor?: Snapshot["cursor"];
  settle: "adaptive" | "fixed" | "waitFor";
  waitAfterMs: number;
  totalMs: number;
}

export interface Observed<T> {
  result: T;
  screen?: ScreenBlock;
  waitFor?: Omit<WaitTextResult, "snapshot">;
}

export async function observe<T>(session: Session, action: () => T | Promise<T>, options: ObserveOptions): Promise<Observed<T>> {
  // A bad pattern must fail before anything is sent.
  if (options.waitFor) compileMatcher(options.waitFor);
  const started = performance.now();
  const before = options.captureScreen ? await settledView(session) : undefined;
  const actionStart = performance.now();
  const result = await action();

  if (options.waitFor) {
    const { snapshot, ...waitFor } = await waitForText(session, options.waitFor, options.signal);
    if (!before) return { result, waitFor };
    return { result, waitFor, screen: block(before, toView(snapshot), "waitFor", 0, started, options.screenDetail) };
  }
  if (!options.captureScreen || !before) return { result };

  let settle: ScreenBlock["settle"];
  let waitAfterMs: number;
  if (options.waitAfterMs !== undefined) {
    settle = "fixed";
    waitAfterMs = options.waitAfterMs;
    await Bun.sleep(Math.max(0, actionStart + waitAfterMs - performance.now()));
  } else {
    settle = "adaptive";
    waitAfterMs = DEFAULT_WAIT_AFTER_MS;
    await adaptiveSettle(session, actionStart, DEFAULT_WAIT_AFTER_MS, options.signal);
  }
  const after = await settledView(session);
  return { result, screen: block(before, after, settle, waitAfterMs, started, options.screenDetail) };
}

async function adaptiveSettle(session: Session, since: number, boundMs: number, signal?: AbortSignal): Promise<void> {
  if (session.lastOutputAt <= since && session.running) {
    const responded = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => done(false), boundMs);
      const unsubscribe = session.onOutput(() => done(true));
      const unsubscribeExit = session.onExit(() => done(true));
      function done(value: boolean) {
        clearTimeout(timer);
        unsubscribe();
        unsubscribeExit();
        resolve(value);
      }
    });
    if (!responded) return;
  }
  const remaining = since + boundMs - performance.now();
  if (remaining > 0) await quietPeriod(session, ADAPTIVE_QUIET_MS, remaining, performance.now(), signal).catch(() => undefined);
}

/** Flush the parser, let an open synchronized update finish (bounded), then read the screen. */
export async function settledView(session: Session): Promise<ScreenView> {
  await session.emulator.flushed();
  return toView(await session.emulator.settledSnapshot({ format: "text" }));
}

export function toView(snapshot: Snapshot): ScreenView {
  return { text: snapshot.text, lines: snapshot.lines, cursor: snapshot.cursor, cols: snapshot.cols, rows: snapshot.rows };
}

function block(before: ScreenView, after: ScreenView, settle: ScreenBlock["settle"], waitAfterMs: number, started: number, detail: ScreenDetail): ScreenBlock {
  const diff = diffSnapshots(before, after);
  const totalMs = Math.round(performance.now() - started);
  if (detail === "diff") return { diff, cursor: after.cursor, settle, waitAfterMs, totalMs };
  return { before, after, diff, settle, waitAfterMs, totalMs };
}
