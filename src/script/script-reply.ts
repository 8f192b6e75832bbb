/**
 * run_script's text: one line per step with that step's own parts indented under it, then the
 * final screen. Inputs show only their changed rows (the script ends with the screen); reads show
 * what they read. The final screen is not repeated when the last step already showed it.
 */
import type { ScreenView } from "../session/observe.ts";
import { partLines } from "../tools/render-text.ts";
import { mergeParts, viewParts, type ReplyParts } from "../tools/reply.ts";
import type { ErrorSummary } from "../util/clip.ts";

/** One step's entry in run_script's `results` as its line shows it (run-script.ts's StepResult adds `result`). */
export interface StepLine {
  index: number;
  type: string;
  label?: string;
  ok: boolean;
  /** The step tool's own one-line summary. */
  summary?: string;
  elapsedMs: number;
  error?: ErrorSummary;
}

/** A step's parts as a script shows them: an input's changed rows, new side only, and no screen. */
function inScript(parts: ReplyParts): ReplyParts {
  if (parts.settleLine === undefined) return parts;
  const diff = parts.diff ? { diff: { ...parts.diff, rows: "after" as const } } : {};
  return { fields: parts.fields, lines: parts.lines, ...diff };
}

const indent = (lines: string[]) => lines.flatMap((line) => line.split("\n")).map((line) => `  ${line}`);

export function scriptParts(
  fields: Record<string, unknown>,
  steps: { step: StepLine; parts: ReplyParts }[],
  final?: ScreenView,
): ReplyParts {
  const lines: string[] = [];
  let lastScreen: { index: number; text: string } | undefined;
  for (const { step, parts } of steps) {
    const name = `${step.index} ${step.type}${step.label ? ` "${step.label}"` : ""}`;
    const e = step.error;
    const ok = `Step ${name} ok${step.summary ? `: ${step.summary}` : ""} (${step.elapsedMs} ms)`;
    lines.push(step.ok ? ok : `Step ${name} FAILED ${e?.code}: ${e?.message}${e?.hint ? ` Fix: ${e.hint}` : ""}`);
    const shown = inScript(parts);
    lines.push(...indent(partLines(shown)));
    if (shown.screen?.text !== undefined) lastScreen = { index: step.index, text: shown.screen.text };
  }
  const last = steps.at(-1)?.step.index;
  const repeated = final && lastScreen && lastScreen.index === last && lastScreen.text === final.text;
  const finalLines = () =>
    repeated ? [`Final screen: as step ${last} shows.`] : partLines(viewParts(final!, "Final screen"));
  const blocks = final ? finalLines() : [];
  return mergeParts({ fields, lines, blocks });
}
