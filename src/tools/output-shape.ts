/**
 * Building blocks for a tool's `output` schema: the fields of its structuredContent and their types.
 * Top level: every field optional and extra fields allowed, because an error result ({ error,
 * details }) and a reply spilled to a file ({ ..., spilled }) carry the same structuredContent slot,
 * and the SDK client validates whatever is there. Nested objects name their fields and the required
 * ones (scripts/schema-lint.ts checks it). A test checks every tool's real output against its schema.
 */
import * as v from "valibot";

export const S = v.string();
export const N = v.number();
export const B = v.boolean();
export const O = v.looseObject({});
export const NN = v.nullable(N);
export const NS = v.nullable(S);
export const list = <T extends v.GenericSchema>(item: T) => v.array(item);
export const strings = list(S);

type Fields = Record<string, v.GenericSchema>;
type Optional<F extends Fields> = { [K in keyof F]: v.OptionalSchema<F[K], undefined> };
const optional = <F extends Fields>(fields: F) =>
  Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, v.optional(s)])) as Optional<F>;

/**
 * Fields a tool's data carries for programs that its outputSchema leaves undescribed, so that tools/list
 * stays small: declared by type only, never listed. A new field goes in `fields` (described) or here.
 */
export const unlisted = <U extends Record<string, unknown>>(): Unlisted<U> => ({});
interface Unlisted<U> {
  readonly "~unlisted"?: U;
}

/** Every field optional, extra fields allowed. `also`: the data's fields the schema does not describe. */
export const shape = <F extends Fields, U extends Record<string, unknown> = Record<never, never>>(
  fields: F,
  _also?: Unlisted<U>,
): v.LooseObjectSchema<Optional<F>, undefined> & Unlisted<U> => v.looseObject(optional(fields));

/** A nested object: `required` fields always there, `optional` ones sometimes; extra fields allowed. */
export const nested = <R extends Fields, P extends Fields = Record<never, never>>(
  required: R,
  optional_: P = {} as P,
) => v.looseObject({ ...required, ...optional(optional_) });

/**
 * The type of a tool's `data` from its `output` schema: the declared fields and no others (the schemas allow
 * extra fields for error and spilled results, a tool's own data does not). `sessionId`, which names the session
 * a session tool acted on, is every tool's and is never printed. A tool without a schema: any fields.
 */
export type DataOf<O> =
  O extends v.LooseObjectSchema<v.ObjectEntries, undefined>
    ? Declared<v.InferOutput<O>> & Partial<UnlistedOf<O>> & { sessionId?: string }
    : Record<string, unknown>;
type UnlistedOf<O> = O extends Unlisted<infer U> ? U : never;

/** The value a nested shape describes, as a tool builds it. */
export type Shaped<T extends v.GenericSchema> = Declared<v.InferOutput<T>>;

/** A schema's output type without the index signatures of loose objects, at every depth. */
type Declared<T> = T extends readonly (infer E)[]
  ? Declared<E>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: Declared<T[K]> }
    : T;

export const cursorShape = nested({ row: N, col: N, visible: B });
export const highlightShape = nested({ row: N, startCol: N, endCol: N, text: S, kind: S });
const rowText = nested({ row: N, text: S });
export const diffShape = nested({
  identical: B,
  cursorMoved: B,
  resized: B,
  changedLines: list(nested({ row: N, before: S, after: S })),
  addedRows: list(rowText),
  removedRows: list(rowText),
});
export const viewShape = nested({
  text: S,
  lines: strings,
  cursor: cursorShape,
  highlights: list(highlightShape),
  cols: N,
  rows: N,
});
/** An input's screen block (session/observe.ts ScreenBlock). */
export const screenBlockShape = nested(
  { diff: diffShape, settle: S },
  {
    before: viewShape,
    after: viewShape,
    fullScreenInstead: B,
    cursor: cursorShape,
    highlights: list(highlightShape),
    waitAfterMs: N,
    waitedMs: N,
    quiet: B,
    totalMs: N,
  },
);
/** A match: the matched text, or the regex's groups. */
export const matchShape = v.nullable(v.union([S, strings]));
export const exitShape = nested({ exitCode: NN, signal: NS }, { exitedAt: S, runtimeMs: N });
export const waitShape = nested(
  { pattern: S, matched: B, elapsedMs: N },
  {
    match: matchShape,
    timedOut: B,
    timeoutMs: N,
    matchedAgainst: S,
    exited: B,
    exit: exitShape,
    exitedBefore: B,
    anyOf: strings,
    matchedIndex: N,
    frameMs: N,
    frameUnfinished: B,
  },
);
export const errorShape = nested({ code: S, message: S }, { hint: S });
const bufferText = nested({ totalLines: N, lines: strings, text: S, truncated: B });
export const scrollbackShape = nested(
  { totalLines: N, lines: strings, text: S, isAltScreen: B, truncated: B, maxLines: N },
  { normalBuffer: bufferText },
);
const modesShape = nested({
  applicationCursorKeys: B,
  applicationKeypad: B,
  bracketedPaste: B,
  mouseTracking: S,
  mouseEncoding: S,
  kittyKeyboardFlags: N,
  altScreen: B,
  synchronizedOutput: B,
  cursorVisible: B,
  focusEvents: B,
});
const viewerShape = nested({ requested: B, open: B }, { terminal: S, fifo: S, reason: S, url: S });
/** One session as start_session and list_sessions report it. */
export const sessionShape = nested(
  {
    id: S,
    sessionId: S,
    name: NS,
    command: S,
    args: strings,
    pid: N,
    state: S,
    cols: N,
    rows: N,
    exitCode: NN,
    signal: NS,
  },
  {
    cwd: S,
    term: S,
    createdAt: S,
    bytesOut: N,
    droppedBytes: N,
    modes: modesShape,
    viewer: viewerShape,
    humanInControl: B,
    // A recording that started (path), or why it did not (error).
    recording: v.union([nested({ path: S }, { events: N, bytes: N }), nested({ error: S })]),
  },
);
export const frameShape = nested(
  { takenAt: S, offsetMs: N, changed: B, cursor: cursorShape, diff: diffShape },
  { text: S },
);

export const monitorReportFields = {
  monitorId: S,
  frameCount: N,
  changedFrameCount: N,
  durationMs: N,
  droppedFrames: N,
  truncated: B,
  frames: list(frameShape),
  finalText: S,
};
/** One run_script step; `result` is that step tool's own structuredContent (its outputSchema). */
export const stepShape = nested(
  { index: N, type: S, ok: B, elapsedMs: N },
  {
    label: S,
    summary: S,
    error: errorShape,
    result: v.pipe(v.looseObject({}), v.description("The step tool's own result, as its outputSchema.")),
  },
);

export const observedOutput = { bytesSent: N, screen: screenBlockShape, waitFor: waitShape };
export const viewOutput = {
  text: S,
  cols: N,
  rows: N,
  cursor: cursorShape,
  scrollback: scrollbackShape,
  highlights: list(highlightShape),
};

/** A tool without its own output schema still declares an object. */
export const anyObject = v.looseObject({});
