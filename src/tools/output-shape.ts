/**
 * Building blocks for a tool's `output` schema: the top-level fields of its structuredContent and
 * their types. Loose on purpose: fields are optional and extra fields are allowed, because an error
 * result ({ error, details }) and a reply spilled to a file ({ ..., spilled }) carry the same
 * structuredContent slot, and the SDK client validates whatever is there. A test checks every
 * tool's real output against its schema.
 */
import * as v from "valibot";

export const S = v.string();
export const N = v.number();
export const B = v.boolean();
export const O = v.looseObject({});
export const A = v.array(v.unknown());
export const NN = v.nullable(N);
export const NS = v.nullable(S);

/** Every field optional, extra fields allowed. */
export const shape = (fields: Record<string, v.GenericSchema>) =>
  v.looseObject(Object.fromEntries(Object.entries(fields).map(([k, s]) => [k, v.optional(s)])));

// sessionId is echoed in most results but not declared: the caller sent it.
export const observedOutput = { bytesSent: N, screen: O, waitFor: O };
export const viewOutput = { text: S, cols: N, rows: N, cursor: O, scrollback: O, highlights: A };

/** A tool without its own output schema still declares an object. */
export const anyObject = v.looseObject({});
