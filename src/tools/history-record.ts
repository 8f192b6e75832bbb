/**
 * Feeds the session's input history (session/history.ts) from the tools: every input call that wrote,
 * every wait_for_text that matched, every assert_text that passed, whether called as a tool or as a
 * run_script step. Arguments are kept as a test file would spell them: observe options and values
 * equal to the schema's defaults are left out.
 */
import * as v from "valibot";
import { toTuiError } from "../errors.ts";
import { newTextOnly, type ScreenBaseline } from "../session/baseline.ts";
import type { WaitSpec } from "../session/history.ts";
import { compileMatcher } from "../session/matcher.ts";
import type { Session } from "../session/session.ts";
import type { ToolContext, ToolData, ToolOutcome } from "./define.ts";
import { observeEntries } from "./schemas.ts";

/** What a tool's calls leave in the history: its definition's `history` (define.ts). */
export type HistoryKind = "input" | "wait" | "check";

/**
 * Options of how a call observes, not what it does: never part of a saved step. The observe options every
 * input shares, plus the session and how a wait or a check looks and reports.
 */
const OBSERVE_KEYS = new Set([
  ...Object.keys(observeEntries),
  "sessionId",
  "pollIntervalMs",
  "errorOnTimeout",
  "excerptBytes",
  "includeText",
]);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null;

type Act<A, D extends ToolData> = (session: Session, args: A, ctx: ToolContext) => Promise<ToolOutcome<D>>;

/** What historyAct reads of a tool's definition. */
interface Recorded {
  name: string;
  history?: HistoryKind;
  input: v.ObjectSchema<v.ObjectEntries, undefined> | v.StrictObjectSchema<v.ObjectEntries, undefined>;
}

/** `act` wrapped so that what it did lands in the session's history, as the tool's `history` says. */
export function historyAct<A extends Record<string, unknown>, D extends ToolData>(
  tool: Recorded,
  act: Act<A, D>,
): Act<A, D> {
  const { name, history: kind, input } = tool;
  if (kind === undefined) return act;
  return async (session, args, ctx) => {
    const before = session.lastInput;
    try {
      const outcome = await act(session, args, ctx);
      record(session, name, kind, input.entries, args, outcome.data, before);
      return outcome;
    } catch (error) {
      const e = toTuiError(error);
      if (kind === "input") {
        // the input went out even though its waitFor timed out: keep the input, not the wait
        session.history.agentInput(name, savedArgs(session, input.entries, args), before);
        if (e.code === "WAIT_TIMEOUT")
          session.history.note(
            `${name}'s waitFor "${String((args.waitFor as WaitSpec).pattern).slice(0, 60)}" timed out`,
          );
      } else session.history.note(`${name} "${String(args.pattern).slice(0, 60)}" failed (${e.code})`);
      throw error;
    }
  };
}

function record(
  session: Session,
  name: string,
  kind: HistoryKind,
  entries: v.ObjectEntries,
  args: Record<string, unknown>,
  data: ToolData,
  before: ScreenBaseline | null,
): void {
  const history = session.history;
  if (kind === "wait") {
    if (data.matched === true) history.wait(waitSpec(args, data.pattern));
    else history.note(`${name} "${String(args.pattern).slice(0, 60)}" did not match`);
    return;
  }
  if (kind === "check") return history.check(stepArgs(entries, args));
  // An input's data (observe-input.ts InputData), read without trusting its type: any tool may be "input".
  const waited = isObject(data.waitFor) ? data.waitFor : undefined;
  const waitFor = args.waitFor as (WaitSpec & { pattern: string }) | undefined;
  let kept: (WaitSpec & { newOnly: boolean }) | undefined;
  if (waitFor && waited?.matched === true) {
    const spec = waitSpec({ ...waitFor }, waited.pattern);
    kept = { ...spec, newOnly: matchedNewText(session, spec) };
  } else if (waitFor) history.note(`${name}'s waitFor "${String(waitFor.pattern).slice(0, 60)}" did not match`);
  // the ready oracle (or the quiet window) saw the app at rest when the call returned, or a wait matched
  const settledBy = isObject(data.screen) ? data.screen.settledBy : undefined;
  const settled = (settledBy !== "timeout" && settledBy !== "fixed") || kept !== undefined;
  history.agentInput(name, savedArgs(session, entries, args), before, kept, settled);
}

/** What a saved step says: the call's own arguments, a secret text replaced by its placeholder. */
function savedArgs(session: Session, entries: v.ObjectEntries, args: Record<string, unknown>): Record<string, unknown> {
  const saved = stepArgs(entries, args);
  // a secret text (send_text's secret: true) is saved as its placeholder
  if (args.secret !== true) return saved;
  return { ...saved, ...session.history.secretArgs(String(args.text)) };
}

/** Did the agent's waitFor pattern match text that only appeared after the input? */
function matchedNewText(session: Session, spec: WaitSpec): boolean {
  if (spec.after === "input") return true;
  const baseline = session.lastInput;
  if (spec.matchScreen === false || baseline === null || !session.running) return false;
  using matcher = compileMatcher(spec);
  const found = matcher.find(newTextOnly(baseline, session.emulator.viewport()).join("\n"), {
    screenCols: session.cols,
  });
  return !(found instanceof Promise) && found !== null;
}

/** The wait as a saved test repeats it; of an anyOf, the pattern that matched in this run. */
function waitSpec(args: Record<string, unknown>, matched?: unknown): WaitSpec {
  const spec: WaitSpec = {
    pattern: String(args.anyOf !== undefined && typeof matched === "string" ? matched : args.pattern),
  };
  if (args.regex === true) spec.regex = true;
  if (typeof args.regexFlags === "string" && args.regexFlags !== "") spec.regexFlags = args.regexFlags;
  if (args.matchScreen === false) spec.matchScreen = false;
  if (typeof args.timeoutMs === "number" && args.timeoutMs !== 5000) spec.timeoutMs = args.timeoutMs;
  if (args.after === "input") spec.after = "input";
  if (args.matchEcho === true) spec.matchEcho = true;
  return spec;
}

/** The arguments that say what the call did, without observe options or defaults. */
export function stepArgs(entries: v.ObjectEntries, args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    if (OBSERVE_KEYS.has(key) || value === undefined) continue;
    const schema = entries[key];
    if (schema && value === v.getDefault(schema as v.GenericSchema)) continue;
    out[key] = value;
  }
  return out;
}
