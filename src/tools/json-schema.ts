/**
 * valibot -> JSON Schema, once at start-up. A schema that cannot convert fails a unit test.
 *
 * tools/list says shared fields once, since the list is paid for on every session: each tool's `describes`
 * (define.ts) names what it says in full, such as the observe options (captureScreen, waitAfterMs, waitFor,
 * screenDetail) on send_keys, waitFor's fields as wait_for_text's arguments, run_script's monitor as
 * start_monitor's arguments. Elsewhere a field keeps its type and default, plus a pointer ("As
 * send_keys.waitFor.") when it is structured; a sub-schema used twice in one tool (send_keys' key chord) is
 * emitted once under $defs. Validation still uses the full valibot schema, so behaviour does not change; the
 * README reference shows every field.
 */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { ToolDef } from "./define.ts";
import { anyObject } from "./output-shape.ts";
import { keySpec } from "./schemas.ts";

type Json = Record<string, any>;

/** Where shared input fields are described in full, gathered from the catalog's `describes`. */
interface SharedFields {
  /** field -> the tool whose schema describes it in full, and that field's name there ("arguments": all of them). */
  owners: Map<string, [owner: string, field: string]>;
  /** field -> the tool whose arguments are that field's fields, when another tool owns the field itself. */
  fieldsAre: Map<string, string>;
}

const sharedCache = new WeakMap<readonly ToolDef[], SharedFields>();

function sharedFields(catalog: readonly ToolDef[]): SharedFields {
  const cached = sharedCache.get(catalog);
  if (cached) return cached;
  const owners = new Map<string, [string, string]>();
  const byArguments = new Map<string, string>();
  for (const tool of catalog)
    for (const [field, here] of Object.entries(tool.describes?.inputs ?? {})) {
      const taken = here === "arguments" ? byArguments.has(field) : owners.has(field);
      if (taken) throw new Error(`two tools describe the shared field ${field}: give it to one`);
      if (here === "arguments") byArguments.set(field, tool.name);
      else owners.set(field, [tool.name, here]);
    }
  const fieldsAre = new Map<string, string>();
  for (const [field, tool] of byArguments)
    if (owners.has(field)) fieldsAre.set(field, tool);
    else owners.set(field, [tool, "arguments"]);
  const shared = { owners, fieldsAre };
  sharedCache.set(catalog, shared);
  return shared;
}

function pointer(full: Json, owner: string, field: string, name = field): Json {
  // captureScreen, waitAfterMs and screenDetail explain themselves once send_keys has said it;
  // the structured ones (waitFor, a key) get a pointer.
  const where = field === "arguments" ? `${owner}'s arguments` : `${owner}.${field}`;
  // A field named unlike its owner's (hold_key.key, one of send_keys.keys) says where it is described.
  const short: Json =
    name !== field
      ? { description: `One entry as in ${where}.` }
      : full.type === "object" || full.anyOf
        ? { description: `As ${where}.` }
        : {};
  if (Array.isArray(full.anyOf)) short.anyOf = full.anyOf.map((alt: Json) => ({ type: alt.type }));
  // "required" inside a structured field is part of what the pointer refers to
  for (const key of ["type", "enum", "default"] as const) if (full[key] !== undefined) short[key] = full[key];
  return short;
}

/**
 * Sub-schemas emitted once per tool as `$defs` when a tool uses them more than once (send_keys.keys:
 * one chord or a list of chords), instead of inlined at every use.
 */
const DEFINITIONS = { key: keySpec };

export function toJson(schema: Parameters<typeof toJsonSchema>[0], definitions?: typeof DEFINITIONS): Json {
  // typeMode "input": fields with defaults are optional for the caller. Transforms (clamps) have no
  // JSON Schema form and are ignored; their bounds are stated in the field descriptions.
  const json = toJsonSchema(schema, {
    typeMode: "input",
    errorMode: "ignore",
    target: "draft-07",
    definitions,
    overrideAction: listedForm,
  }) as Json;
  delete json.$schema;
  return definitions ? foldSingleUseDefs(json) : json;
}

/** A field's listed form (schemas.ts listedAs), in place of the union it accepts. */
function listedForm({
  valibotAction,
}: {
  valibotAction: { type: string; metadata?: { listed?: Json } };
}): Json | undefined {
  return valibotAction.type === "metadata" ? valibotAction.metadata?.listed : undefined;
}

/** The converter emits every given definition; keep only those used twice or more, inline a single use. */
function foldSingleUseDefs(json: Json): Json {
  const defs: Json = json.$defs ?? {};
  delete json.$defs;
  const uses = (name: string) => JSON.stringify(json).split(`"#/$defs/${name}"`).length - 1;
  const kept = Object.fromEntries(Object.entries(defs).filter(([name]) => uses(name) > 1));
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (node === null || typeof node !== "object") return node;
    const ref = (node as Json).$ref;
    if (typeof ref === "string" && ref.startsWith("#/$defs/")) {
      const name = ref.slice("#/$defs/".length);
      if (!(name in kept) && name in defs) return inline(defs[name]);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v)]));
  };
  const out = inline(json) as Json;
  return Object.keys(kept).length > 0 ? { ...out, $defs: kept } : out;
}

/**
 * The input JSON Schema. `listedWith` (tools/list): the catalog whose `describes` say where shared fields are
 * described, which this tool's copies then point at; false: every field in full (the README reference).
 */
export function inputJsonSchema(
  tool: ToolDef,
  listedWith: readonly ToolDef[] | false,
): { type: "object"; [key: string]: unknown } {
  const schema = toJson(tool.input, listedWith ? DEFINITIONS : undefined);
  if (!listedWith) return { ...tidy(schema), type: "object" };
  const { owners, fieldsAre } = sharedFields(listedWith);
  const properties: Json = schema.properties ?? {};
  for (const [field, [owner, ownerField]] of owners) {
    if (owner !== tool.name && properties[field])
      properties[field] = pointer(properties[field], owner, ownerField, field);
    // a field whose own fields are another tool's arguments says so instead of repeating them
    const fieldsTool = fieldsAre.get(field);
    if (owner === tool.name && fieldsTool !== undefined && properties[ownerField]?.properties) {
      const full = properties[ownerField];
      properties[ownerField] = {
        type: "object",
        description: `${full.description ?? ""} Fields: ${fieldsTool}'s arguments minus sessionId.`.trim(),
        required: full.required,
      };
    }
  }
  // run_script's defaults hold the same observe option
  const screenDetailOwner = owners.get("screenDetail");
  if (properties.defaults?.properties?.screenDetail && screenDetailOwner)
    properties.defaults.properties.screenDetail = pointer(
      properties.defaults.properties.screenDetail,
      ...screenDetailOwner,
    );
  // Top-level additionalProperties: false is left out: the server also accepts the original
  // version's argument names (compat), and rejects any other unknown argument with an error that
  // names it and the nearest valid one, so the flag would be both inexact and paid for on every tool.
  const { additionalProperties: _strict, ...rest } = withoutLengths(tidy(schema));
  return { ...rest, type: "object" };
}

/**
 * String lengths are left out of tools/list (about 150 tokens): "not empty" and the path and label caps are
 * what anyone sends anyway, and the server refuses a value past them with an error naming the bound.
 * Validation keeps them; the README reference shows them.
 */
function withoutLengths(node: Json): Json {
  if (Array.isArray(node)) return node.map(withoutLengths);
  if (node === null || typeof node !== "object") return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === "minLength" || key === "maxLength") && typeof value === "number") continue;
    // a property named minLength keeps its schema: only the keyword is dropped
    out[key] =
      key === "properties"
        ? Object.fromEntries(Object.entries(value as Json).map(([k, s]) => [k, withoutLengths(s)]))
        : withoutLengths(value);
  }
  return out;
}

/** The tool's outputSchema: fields, types and nested shapes (see output-shape.ts). */
export function outputJsonSchema(tool: ToolDef): { type: "object"; [key: string]: unknown } {
  return { ...tidy(toJson(tool.output ?? anyObject)), type: "object" };
}

/**
 * Every tool's outputSchema for tools/list, a nested shape described once: a later identical object
 * (three fields or more) becomes a pointer, `{ type, description: "As send_keys.screen." }`, as the
 * input side does (the screen block alone is about 750 tokens, and eight tools return one).
 * Pointer paths name properties with dots and array items with [].
 */
export function listedOutputSchemas(tools: ToolDef[]): Map<string, Json> {
  const seen = new Map<string, string>();
  // stable: tools of one rank, and those without one, keep their catalog order
  const order = [...tools].sort((a, b) => rank(a) - rank(b));
  const out = new Map<string, Json>();
  for (const tool of order) out.set(tool.name, pointShared(outputJsonSchema(tool), tool.name, "", seen));
  return out;
}

/** Tools whose `describes.outputs` ranks them say their output shapes first, lowest rank first. */
const rank = (tool: ToolDef) => tool.describes?.outputs ?? Number.POSITIVE_INFINITY;

function pointShared(node: Json, tool: string, path: string, seen: Map<string, string>): Json {
  const fields = node.properties ? Object.keys(node.properties).length : 0;
  if (path !== "" && fields >= 3) {
    const key = JSON.stringify(node);
    const first = seen.get(key);
    if (first) return { type: node.type, description: `As ${first}.` };
    seen.set(key, `${tool}.${path}`);
  }
  const out: Json = { ...node };
  if (node.properties) {
    out.properties = Object.fromEntries(
      Object.entries(node.properties as Json).map(([k, s]) => [
        k,
        pointShared(s, tool, path ? `${path}.${k}` : k, seen),
      ]),
    );
  }
  if (node.items && typeof node.items === "object") out.items = pointShared(node.items, tool, `${path}[]`, seen);
  if (Array.isArray(node.anyOf)) out.anyOf = node.anyOf.map((alt: Json) => pointShared(alt, tool, path, seen));
  return out;
}

/**
 * Drop what JSON Schema assumes anyway: empty required/properties/items, additionalProperties: true; an anyOf stays
 * one (a type list is not single-type).
 */
function tidy(json: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(json)) {
    if (key === "additionalProperties" && value === true) continue;
    // JSON object keys are always strings
    if (key === "propertyNames" && value?.type === "string" && Object.keys(value).length === 1) continue;
    if (
      (key === "required" && Array.isArray(value) && value.length === 0) ||
      ((key === "properties" || key === "items") && Object.keys(value ?? {}).length === 0)
    )
      continue;
    if (key === "properties")
      out[key] = Object.fromEntries(Object.entries(value as Json).map(([k, s]) => [k, tidy(s as Json)]));
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
  const defaults: Record<string, boolean> = {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  };
  const out: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(hints)) {
    // destructiveHint and idempotentHint are meaningful only when readOnlyHint is false (MCP spec, ToolAnnotations)
    if ((key === "destructiveHint" || key === "idempotentHint") && hints.readOnlyHint) continue;
    if (defaults[key] !== value) out[key] = value;
  }
  return out;
}
