/**
 * A tool is a plain object: name, title, short description, a flat strict valibot schema,
 * annotations and a `run`. Session tools get their session resolved and checked first; inputs are serialised.
 *
 * Types are erased here, once: `ToolDef<S>` is what a tool file writes (typed args), `ToolDef` (S left at its
 * default) is what every list holds (the catalog, run_script's steps, the server). One converts to the other
 * without a cast because `run`, `act` and `check` are declared as methods, which TypeScript compares
 * bivariantly; keep them methods. It is sound because dispatch and run_script validate with the tool's own
 * `input` before calling `run`/`act`, so the args always have the shape the typed code expects.
 *
 * Which failure channel to use:
 * - throw a `TuiError(code, message, hint)` (errors.ts) for a call that cannot do its job: bad arguments,
 *   an unknown session, a refused action. Dispatch renders it as an isError result ("Error CODE" / "Fix:").
 * - throw a `ReplyError` (reply.ts) for such a failure whose reader needs to see something with it, such as
 *   the screen when an input's waitFor timed out: its `parts` render below the error.
 * - return `outcome.error` when the call did its job and its full result is the answer, but the answer is a
 *   failure the caller asked to be told about as one (wait_for_text's timeout with errorOnTimeout): the error
 *   prints first and the result's data and parts stay.
 * - return `outcome.isError` when a failure is the summary of a complete result that has no single error
 *   (run_script with ok: false: its steps say what failed).
 */
import type * as v from "valibot";
import type { ErrorCode } from "../errors.ts";
import type { Session } from "../session/session.ts";
import type { CompatMap } from "./args.ts";
import type { ServerContext } from "./context.ts";
import { type HistoryKind, historyAct } from "./history-record.ts";
import type { DataOf } from "./output-shape.ts";
import type { ReplyParts } from "./reply.ts";

/** The server's context plus what belongs to one call. */
export interface ToolContext extends ServerContext {
  /** Aborted when the client cancels the request. */
  signal: AbortSignal;
  /** The arguments as the client sent them, before defaults (get_exit_info: was outputTailBytes asked for?). Dispatch and the CLI runner set it. */
  rawArgs: unknown;
  /** Called by run_script as each step ends (the test runner places step pictures on a recording's clock). */
  onStepEnd?: (index: number) => void;
  /** A progress notification to the client, when it asked for them (a progressToken); run_tests sends one per test. */
  progress?: (message: string, progress?: number, total?: number) => void;
}

/** A tool's structuredContent fields; a tool with an `output` schema returns `DataOf` that schema (output-shape.ts). */
export type ToolData = Record<string, unknown>;

/** What a handler returns: the renderer turns it into content + structuredContent. */
export interface ToolOutcome<D extends ToolData = ToolData> {
  summary: string;
  data: D;
  /** The text's named parts (reply.ts); without them the text is the summary and data's fields. */
  parts?: ReplyParts;
  /** A failure that still carries its full result (run_script with ok: false): rendered as isError. */
  isError?: boolean;
  /** The error of such a failure (wait_for_text's timeout): printed first, and put in structuredContent.error. */
  error?: { code: ErrorCode; message: string; hint?: string };
  /**
   * What made an isError result fail when its data says it otherwise (run_script's first failed step): printed
   * first as `Error CODE` and `Fix`, like any error, and not added to the data.
   */
  failure?: { code: string; message: string; hint?: string };
  /** Content blocks after the text rendering, e.g. a screenshot as an MCP image and a link to its file. */
  extraContent?: (
    | { type: "image"; data: string; mimeType: string }
    | { type: "text"; text: string }
    | { type: "resource_link"; uri: string; name: string; mimeType: string }
  )[];
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

type ObjectSchema = v.StrictObjectSchema<v.ObjectEntries, undefined>;

export interface ToolDef<S extends ObjectSchema = ObjectSchema, D extends ToolData = ToolData> {
  name: string;
  description: string;
  input: S;
  /** The structuredContent's top-level fields (tools/list outputSchema); built with output-shape.ts. */
  output?: v.GenericSchema;
  annotations: ToolAnnotations;
  /** Also a run_script step type (same schema minus sessionId, same code); session tools only. */
  scriptable?: boolean;
  /** Argument names of the original version, renamed (or dropped) before validation. */
  compat?: CompatMap;
  /**
   * What tools/list says in full on this tool only, so other tools point at it ("As send_keys.waitFor.")
   * instead of repeating it. `inputs`: an argument other tools share -> this tool's field that describes it,
   * or "arguments" when this tool's arguments are that argument's fields. `outputs`: a rank; ranked tools say
   * their result shapes first (lowest rank first, ties in catalog order), and a later identical shape points
   * at the first.
   */
  describes?: { inputs?: Record<string, string>; outputs?: number };
  run(args: v.InferOutput<S>, ctx: ToolContext): Promise<ToolOutcome<D>>;
}

/** A tool that acts on one session; its `act` is also what run_script steps call. */
export interface SessionToolDef<S extends ObjectSchema = ObjectSchema, D extends ToolData = ToolData>
  extends ToolDef<S, D> {
  /** Accept exited sessions (read-only tools) instead of failing with SESSION_EXITED. */
  allowExited: boolean;
  /**
   * Validation beyond the schema (key names, regexes), run before anything is sent; run_script runs it for every step
   * first.
   */
  check?(args: v.InferOutput<S>): void;
  act(session: Session, args: v.InferOutput<S>, ctx: ToolContext): Promise<ToolOutcome<D>>;
  /** Runs in the session's input queue; default: every tool that is not read-only. */
  queued?: boolean;
  /**
   * What a call leaves in the session's input history, which save_test replays: "input" (the input it wrote,
   * and its waitFor when that matched), "wait" (a wait that matched), "check" (an assertion that passed).
   * Unset: nothing, the tool only reads or observes.
   */
  history?: HistoryKind;
  /**
   * A step that compares with a golden file: that file's name in its test file's golden directory, from the step
   * as written (undefined: no golden this time). The test runner sets such a step's dir and update.
   */
  golden?(step: Record<string, unknown>): string | undefined;
}

/**
 * The data fields of a handler's outcomes (R, a union when it returns in several places) that its `output`
 * schema does not declare. A field the schema leaves out would still reach the model's text, unseen.
 */
type Undeclared<R, D> = R extends { data: infer X } ? UndeclaredKeys<X, D> : never;
/** Per member when the data is itself a union (an action that returns different fields). */
type UndeclaredKeys<X, D> = X extends unknown ? Exclude<keyof X, keyof D> : never;
/** Nothing when every field is declared; else a member the definition lacks, named after the fields. */
type AllDeclared<R, D> = [Undeclared<R, D>] extends [never] ? unknown : { undeclaredDataFields: Undeclared<R, D> };

export function defineTool<
  S extends ObjectSchema,
  O extends v.GenericSchema = v.GenericSchema,
  R extends ToolOutcome<DataOf<O>> = ToolOutcome<DataOf<O>>,
>(
  def: Omit<ToolDef<S, DataOf<O>>, "output" | "run"> & {
    output?: O;
    run(args: v.InferOutput<S>, ctx: ToolContext): Promise<R>;
  } & AllDeclared<R, DataOf<O>>,
): ToolDef<S, DataOf<O>> {
  return def;
}

export function defineSessionTool<
  S extends ObjectSchema,
  O extends v.GenericSchema = v.GenericSchema,
  R extends ToolOutcome<DataOf<O>> = ToolOutcome<DataOf<O>>,
>(
  def: Omit<SessionToolDef<S, DataOf<O>>, "output" | "run" | "act" | "allowExited"> & {
    output?: O;
    allowExited?: boolean;
    act(session: Session, args: v.InferOutput<S>, ctx: ToolContext): Promise<R>;
  } & AllDeclared<R, DataOf<O>>,
): SessionToolDef<S, DataOf<O>> {
  const allowExited = def.allowExited ?? false;
  // what the call did goes into the session's input history (save_test), as a tool or a script step
  const recorded = historyAct<v.InferOutput<S>, DataOf<O>>(def, def.act);
  return {
    ...def,
    act: recorded,
    allowExited,
    run(args, ctx) {
      def.check?.(args);
      const session = ctx.sessions.get((args as { sessionId: string }).sessionId);
      const act = async () => {
        if (!allowExited) session.assertRunning();
        return recorded(session, args, ctx);
      };
      // Inputs run one at a time in call order (one user at one keyboard); reads, waits and observers
      // run at once, so a wait sent with the input that satisfies it never queues that input behind
      // itself, and a monitor started during a long type_text records it instead of following it.
      return (def.queued ?? !def.annotations.readOnlyHint) ? session.serialize(act) : act();
    },
  };
}

export function annotations(
  title: string,
  kind: "read" | "write" | "destroy",
  idempotent = kind === "read",
): ToolAnnotations {
  return {
    title,
    readOnlyHint: kind === "read",
    destructiveHint: kind === "destroy",
    idempotentHint: idempotent,
    // Sessions run arbitrary local programs, but no tool reaches out to an open world of services.
    openWorldHint: false,
  };
}
