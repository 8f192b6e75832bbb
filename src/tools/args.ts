/**
 * Arguments at the edge: the original version's argument names (compat), and validation issues
 * turned into messages that name the argument, list the valid ones and suggest the nearest.
 */
import * as v from "valibot";
import { nearest } from "../keys/names.ts";
import { clip } from "../util/clip.ts";

/** Old argument name -> current name, or null for an argument accepted and ignored (its behaviour is always on). */
export type CompatMap = Record<string, string | null>;

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);

/** Rename old argument names; the current name wins when both are given. */
export function applyCompat(compat: CompatMap | undefined, raw: unknown): unknown {
  if (!compat || !isRecord(raw)) return raw;
  const out = { ...raw };
  for (const [old, now] of Object.entries(compat)) {
    if (!(old in out)) continue;
    const value = out[old];
    delete out[old];
    if (now !== null && !(now in out)) out[now] = value;
  }
  return out;
}

type AnySchema = {
  type: string;
  entries?: Record<string, AnySchema>;
  wrapped?: AnySchema;
  pipe?: AnySchema[];
  item?: AnySchema;
};

/** The object entries at a path of keys inside a schema (through optional, pipe and array wrappers). */
function entriesAt(schema: AnySchema | undefined, keys: (string | number)[]): Record<string, AnySchema> | undefined {
  let at = schema;
  const unwrap = () => {
    for (let i = 0; i < 8 && at; i++) {
      if (at.wrapped) at = at.wrapped;
      else if (at.pipe && at.pipe[0] !== at) at = at.pipe[0];
      else break;
    }
  };
  unwrap();
  for (const key of keys) {
    if (!at) return undefined;
    at = typeof key === "number" ? at.item : at.entries?.[key];
    unwrap();
  }
  return at?.entries;
}

function unknownKeyMessage(issue: v.BaseIssue<unknown>, schema: AnySchema | undefined): string | undefined {
  if (issue.expected !== "never" || !issue.path || issue.path.length === 0) return undefined;
  const last = issue.path[issue.path.length - 1]!;
  if (last.type !== "object") return undefined;
  const name = String(last.key);
  const parents = issue.path.slice(0, -1).map((p) => p.key as string | number);
  const entries = entriesAt(schema, parents);
  if (!entries) return undefined;
  const valid = Object.keys(entries);
  const byLower = new Map(valid.map((k) => [k.toLowerCase(), k]));
  const guess = name.length <= 64 ? nearest(name, byLower.keys()) : undefined;
  const where = parents.length ? ` in ${parents.join(".")}` : "";
  return (
    `unknown argument "${clip(name, 60)}"${where}` +
    `${guess ? ` (did you mean "${byLower.get(guess)}"?)` : ""}; valid: ` +
    `${valid.join(", ")}`
  );
}

/** At most five issues, each as `path: message`, unknown arguments spelled out. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[], schema?: unknown): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const unknown = unknownKeyMessage(issue, schema as AnySchema | undefined);
      if (unknown) return unknown;
      const path = v.getDotPath(issue);
      const message = clip(issue.message, 200);
      return path ? `${path}: ${message}` : message;
    })
    .join("; ");
}
