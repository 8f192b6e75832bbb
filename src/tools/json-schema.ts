/**
 * valibot -> JSON Schema, once at start-up. A schema that cannot convert fails a unit test.
 *
 * tools/list says shared fields once (issue 11: it is paid for on every session): the observe options
 * (captureScreen, waitAfterMs, waitFor, screenDetail) in full on send_keys only, waitFor's fields on
 * wait_for_text only, run_script's monitor on start_monitor. Elsewhere a field keeps its type and
 * default, plus a pointer ("As send_keys.waitFor.") when it is structured. Validation still uses the
 * full valibot schema, so behaviour does not change; the README reference shows every field.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { ToolDef } from "./define.ts";
import { anyObject, outputSchemas } from "./output-schemas.ts";

type Json = Record<string, any>;

/** field -> the tool whose schema describes it in full (and that field's name there). */
const SHARED: Record<string, [owner: string, field: string]> = {
  captureScreen: ["send_keys", "captureScreen"],
  waitAfterMs: ["send_keys", "waitAfterMs"],
  waitFor: ["send_keys", "waitFor"],
  screenDetail: ["send_keys", "screenDetail"],
  key: ["send_keys", "keys"],
  monitor: ["start_monitor", "arguments"],
};

function pointer(full: Json, owner: string, field: string): Json {
  // captureScreen, waitAfterMs and screenDetail explain themselves once send_keys has said it;
  // the structured ones (waitFor, a key) get a pointer.
  const where = field === "arguments" ? `${owner}'s arguments` : `${owner}.${field}`;
  const short: Json = full.type === "object" || full.anyOf ? { description: `As ${where}.` } : {};
  if (Array.isArray(full.anyOf)) short.anyOf = full.anyOf.map((alt: Json) => ({ type: alt.type }));
  for (const key of ["type", "enum", "default", "required"] as const) if (full[key] !== undefined) short[key] = full[key];
  return short;
}

export function toJson(schema: Parameters<typeof toJsonSchema>[0]): Json {
  // typeMode "input": fields with defaults are optional for the caller. Transforms (clamps) have no
  // JSON Schema form and are ignored; their bounds are stated in the field descriptions.
  const json = toJsonSchema(schema, { typeMode: "input", errorMode: "ignore", target: "draft-07" }) as Json;
  delete json.$schema;
  return json;
}

/** The input JSON Schema; `compact` (tools/list) folds shared fields, the README reference shows them all. */
export function inputJsonSchema(tool: ToolDef, compact = true): { type: "object"; [key: string]: unknown } {
  const schema = toJson(tool.input);
  if (!compact) return { ...tidy(schema), type: "object" };
  const properties: Json = schema.properties ?? {};
  for (const [field, [owner, ownerField]] of Object.entries(SHARED)) {
    if (owner !== tool.name && properties[field]) properties[field] = pointer(properties[field], owner, ownerField);
  }
  // waitFor's own fields are the arguments of wait_for_text: say so instead of repeating them.
  if (tool.name === "send_keys" && properties.waitFor?.properties) {
    properties.waitFor = {
      type: "object",
      description: `${properties.waitFor.description ?? ""} Fields: wait_for_text's arguments (${Object.keys(properties.waitFor.properties).join(", ")}).`.trim(),
      required: properties.waitFor.required,
    };
  }
  if (properties.defaults?.properties?.screenDetail) properties.defaults.properties.screenDetail = pointer(properties.defaults.properties.screenDetail, "send_keys", "screenDetail");
  return { ...tidy(schema), type: "object" };
}

/** The tool's outputSchema: top-level fields and types (see output-schemas.ts). */
export function outputJsonSchema(tool: ToolDef): { type: "object"; [key: string]: unknown } {
  return { ...tidy(toJson(outputSchemas[tool.name] ?? anyObject)), type: "object" };
}

/** Drop what JSON Schema assumes anyway: empty required/properties/items, additionalProperties: true. */
function tidy(json: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === "additionalProperties" && value === true) continue;
    if ((key === "required" && Array.isArray(value) && value.length === 0) || ((key === "properties" || key === "items") && Object.keys(value ?? {}).length === 0)) continue;
    if (key === "properties") out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, s]) => [k, tidy(s as Json)]));
    else if (key === "items" && typeof value === "object") out[key] = tidy(value as Json);
    else if (key === "anyOf" && Array.isArray(value)) out[key] = value.map((alt) => tidy(alt as Json));
    else out[key] = value;
  }
  return out;
}

/**
 * MCP annotations, leaving out hints equal to the spec's defaults (readOnlyHint false,
 * destructiveHint true, idempotentHint false, openWorldHint true), and the title (listed beside).
 */
export function listedAnnotations(tool: ToolDef): Record<string, boolean> {
  const { title: _title, ...hints } = tool.annotations;
  const defaults: Record<string, boolean> = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true };
  const out: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(hints)) {
    // destructiveHint is meaningful only when readOnlyHint is false (MCP spec)
    if (key === "destructiveHint" && hints.readOnlyHint) continue;
    if (defaults[key] !== value) out[key] = value;
  }
  return out;
}
