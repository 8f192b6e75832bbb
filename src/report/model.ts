/**
 * What the report shows for one test, built from its result and its recording: the recording
 * replayed to the end of each step gives the screen after that step (as SVG, changed rows marked),
 * and the step ends become the player's markers.
 */

import { type Cast, parseCast } from "../record/cast-file.ts";
import { type ReplayFrame, screensAt } from "../render/replay.ts";
import { CELL_HEIGHT, renderSvg } from "../render/svg.ts";
import type { ReportedStep, ReportedTest } from "./types.ts";

/** Step pictures per test (everything is bounded: a 1000-step test must not make a 100 MB page). */
export const MAX_STEP_PICTURES = 200;
/** A recording larger than this is linked, not inlined (the page must open quickly). */
export const MAX_INLINE_CAST_BYTES = 8 * 1024 * 1024;
/** Characters of a step's input shown. */
const MAX_INPUT_CHARS = 300;

export interface StepView {
  index: number;
  type: string;
  label?: string;
  status: "passed" | "failed" | "not run";
  elapsedMs?: number;
  /** The step's arguments as written in the test file, shortened. */
  input: string;
  error?: ReportedStep["error"];
  /** expect_snapshot's golden/actual row diff. */
  diff?: string;
  svg?: string;
  changedRows: number[];
  /** Index into `markers`, when the step has one. */
  marker?: number;
}

export interface TestView {
  id: string;
  result: ReportedTest;
  steps: StepView[];
  /** The asciicast text, inlined for the player. */
  cast?: string;
  /** [seconds, label] per step end. */
  markers: [number, string][];
  /** Recording file relative to the report directory, when it exists. */
  recordingHref?: string;
  /** The screen when the test ended, as SVG (from the recording). */
  finalSvg?: string;
  note?: string;
}

function inputOf(step: Record<string, unknown>): string {
  const { type: _type, label: _label, ...args } = step;
  const text = JSON.stringify(args);
  return text === "{}" ? "" : text.length > MAX_INPUT_CHARS ? `${text.slice(0, MAX_INPUT_CHARS)}…` : text;
}

/** Rows whose cells differ between two screens (all rows when the size changed). */
export function changedRows(before: ReplayFrame | undefined, after: ReplayFrame): number[] {
  const rows = after.screen.cells.map((_, r) => r);
  if (!before || before.screen.cols !== after.screen.cols || before.screen.rows !== after.screen.rows)
    return before ? rows : [];
  return rows.filter((r) => JSON.stringify(before.screen.cells[r]) !== JSON.stringify(after.screen.cells[r]));
}

/** The SVG with a bar in the left margin and a light band on every changed row. */
export function markRows(svg: string, rows: number[], width: number): string {
  if (rows.length === 0) return svg;
  const marks = rows.map(
    (r) =>
      `<rect x="0" y="${r * CELL_HEIGHT}" width="${width}" height="${CELL_HEIGHT}" ` +
      `fill="#f5a623" fill-opacity="0.13"/><rect x="0" y="${r * CELL_HEIGHT}" ` +
      `width="3" height="${CELL_HEIGHT}" fill="#f5a623"/>`,
  );
  return svg.replace(/<\/svg>$/, `<g class="changed">${marks.join("")}</g></svg>`);
}

function picture(frame: ReplayFrame, changed: number[]): string {
  const { svg, width } = renderSvg(frame.screen, frame.colours);
  return markRows(svg, changed, width);
}

export async function buildTestView(
  id: string,
  result: ReportedTest,
  planned: Record<string, unknown>[],
  recordingHref?: string,
): Promise<TestView> {
  const steps: StepView[] = planned.map((step, index) => {
    const ran = result.steps.find((s) => s.index === index);
    const label = typeof step.label === "string" ? step.label : undefined;
    const base = { index, type: String(step.type), ...(label ? { label } : {}), input: inputOf(step), changedRows: [] };
    if (!ran) return { ...base, status: "not run" };
    const diff = typeof ran.result?.diff === "string" ? ran.result.diff : undefined;
    return {
      ...base,
      status: ran.ok ? "passed" : "failed",
      elapsedMs: ran.elapsedMs,
      ...(ran.error ? { error: ran.error } : {}),
      ...(diff ? { diff } : {}),
    };
  });
  const view: TestView = { id, result, steps, markers: [], ...(recordingHref ? { recordingHref } : {}) };
  const path = result.recording?.path;
  if (!path) return view;
  const file = Bun.file(path);
  if (!(await file.exists())) return { ...view, note: `the recording ${path} is gone` };
  let cast: Cast;
  let text: string;
  try {
    text = await file.text();
    cast = parseCast(text, path);
  } catch (error) {
    return {
      ...view,
      note: `the recording could not be read: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  if (file.size <= MAX_INLINE_CAST_BYTES) view.cast = text;
  else
    view.note =
      `the recording is ${Math.round(file.size / 2 ** 20)} MiB, too large to play in ` +
      `the page; open ${recordingHref ?? path}`;
  // Step ends on the recording's clock, as the runner noted them (without them, the durations summed,
  // which misses the moments between steps and so can show a step's screen before its output).
  const noted = result.recording?.stepEndsMs ?? [];
  let clock = 0;
  const ends: { step: StepView; atMs: number }[] = [];
  for (const step of steps) {
    if (step.elapsedMs === undefined) continue;
    clock = noted[step.index] ?? clock + step.elapsedMs;
    ends.push({ step, atMs: Math.min(clock, cast.durationMs) });
  }
  const pictured = ends.slice(0, MAX_STEP_PICTURES);
  const times = [0, ...pictured.map((e) => e.atMs), cast.durationMs];
  const frames = await screensAt(cast, cast.events, times);
  pictured.forEach(({ step, atMs }, i) => {
    step.changedRows = changedRows(frames[i], frames[i + 1]!);
    step.svg = picture(frames[i + 1]!, step.changedRows);
    step.marker = view.markers.length;
    view.markers.push([atMs / 1000, `step ${step.index}: ${step.label ?? step.type}`]);
  });
  view.finalSvg = picture(frames.at(-1)!, []);
  return view;
}
