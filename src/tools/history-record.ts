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

const INPUT_TOOLS = new Set([
  "send_keys",
  "send_text",
  "send_raw",
  "paste",
  "mouse",
  "resize",
  "type_text",
  "hold_key",
]);
/** Options of how a call observes, not what it does: never part of a saved step. */
const OBSERVE_KEYS = new Set([
  "sessionId",
  "captureScreen",
  "waitAfterMs",
  "waitFor",
  "screenDetail",
  "pollIntervalMs",
  "errorOnTimeout",
  "excerptBytes",
  "includeText",
]);

type Act<A> = (session: Session, args: A, ctx: never) => Promise<{ data: Record<string, unknown> }>;

export function isRecorded(name: string): boolean {
  return INPUT_TOOLS.has(name) || name === "wait_for_text" || name === "assert_text";
}

/** `act` wrapped so that what it did lands in the session's history. */
export function recordingAct<A extends Record<string, unknown>, F extends Act<A>>(
  name: string,
  input: v.ObjectSchema<v.ObjectEntries, undefined> | v.StrictObjectSchema<v.ObjectEntries, undefined>,
  act: F,
): F {
  if (!isRecorded(name)) return act;
  const wrapped = async (session: Session, args: A, ctx: never) => {
    const before = session.lastInput;
    try {
      const outcome = await act(session, args, ctx);
      record(session, name, input.entries, args, outcome.data, before);
      return outcome;
    } catch (error) {
      const e = toTuiError(error);
      if (INPUT_TOOLS.has(name)) {
        // the input went out even though its waitFor timed out: keep the input, not the wait
        session.history.agentInput(name, savedArgs(session, name, input.entries, args), before);
        if (e.code === "WAIT_TIMEOUT")
          session.history.note(
            `${name}'s waitFor "${String((args.waitFor as WaitSpec).pattern).slice(0, 60)}" timed out`,
          );
      } else session.history.note(`${name} "${String(args.pattern).slice(0, 60)}" failed (${e.code})`);
      throw error;
    }
  };
  return wrapped as F;
}

function record(
  session: Session,
  name: string,
  entries: v.ObjectEntries,
  args: Record<string, unknown>,
  data: Record<string, unknown>,
  before: ScreenBaseline | null,
): void {
  const history = session.history;
  if (name === "wait_for_text") {
    if (data.matched === true) history.wait(waitSpec(args));
    else history.note(`wait_for_text "${String(args.pattern).slice(0, 60)}" did not match`);
    return;
  }
  if (name === "assert_text") return history.check(stepArgs(entries, args));
  const waited = data.waitFor as { matched?: boolean } | undefined;
  const waitFor = args.waitFor as (WaitSpec & { pattern: string }) | undefined;
  let kept: (WaitSpec & { newOnly: boolean }) | undefined;
  if (waitFor && waited?.matched)
    kept = { ...waitSpec(waitFor as unknown as Record<string, unknown>), newOnly: matchedNewText(session, waitFor) };
  else if (waitFor) history.note(`${name}'s waitFor "${waitFor.pattern.slice(0, 60)}" did not match`);
  // the ready oracle (or the quiet window) saw the app at rest when the call returned, or a wait matched
  const settledBy = (data.screen as { settledBy?: string } | undefined)?.settledBy;
  const settled = settledBy === undefined || !["timeout", "fixed"].includes(settledBy) || kept !== undefined;
  history.agentInput(name, savedArgs(session, name, entries, args), before, kept, settled);
}

/** What a saved step says: the call's own arguments, a secret text replaced by its placeholder. */
function savedArgs(
  session: Session,
  name: string,
  entries: v.ObjectEntries,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const saved = stepArgs(entries, args);
  if (name !== "send_text" || args.secret !== true) return saved;
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

function waitSpec(args: Record<string, unknown>): WaitSpec {
  const spec: WaitSpec = { pattern: String(args.pattern) };
  if (args.regex === true) spec.regex = true;
  if (typeof args.regexFlags === "string" && args.regexFlags !== "") spec.regexFlags = args.regexFlags;
  if (args.matchScreen === false) spec.matchScreen = false;
  if (typeof args.timeoutMs === "number" && args.timeoutMs !== 5000) spec.timeoutMs = args.timeoutMs;
  if (args.after === "input") spec.after = "input";
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
