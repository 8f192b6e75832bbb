#!/usr/bin/env bun
/**
 * A strict portability check of tools/list, the kind the MCP Inspector's schema lint and the
 * single-type function-calling dialects (Gemini's OpenAPI subset, OpenAI strict mode) apply:
 * - input root: `type: "object"` (non-object-root);
 * - every schema node names one `type` as a string: no `["string", "object"]` lists (type-union),
 *   no node without a type, enum or const (untyped-schema), an anyOf only of branches with one
 *   and the same type (mixed-union: such a field cannot be declared in a single-type dialect);
 * - output schemas: an object that lists properties names its `required` ones (output-required), and
 *   a nested object or array says its shape (properties, additionalProperties or items; opaque-shape).
 *
 * The root of an output schema is exempt from output-required: an error result's structuredContent
 * ({ error, details }) and a reply spilled to a file fill the same slot, and the SDK client checks
 * structuredContent against outputSchema even on error results, so a required success field there
 * would fail every error result.
 * A nested output shape given once and pointed at elsewhere ("As send_keys.screen.", dots for
 * properties, [] for array items) counts as described when the pointer resolves to a described shape.
 * mixed-union applies to inputs only: an output may be nullable (anyOf [{type: X}, {type: "null"}]).
 *
 *   bun scripts/schema-lint.ts        print every warning for the catalog's tools/list; exit 1 if any
 */

type Json = Record<string, any>;

export interface SchemaWarning {
  tool: string;
  where: "inputSchema" | "outputSchema";
  /** JSON path inside the schema, e.g. properties.key. */
  path: string;
  rule:
    | "non-object-root"
    | "type-union"
    | "untyped-schema"
    | "mixed-union"
    | "output-required"
    | "opaque-shape"
    | "dangling-pointer";
  message: string;
}

const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);

/** The types a node can hold, from `type`, `enum`/`const` values, or its anyOf branches. */
function typesOf(node: Json): string[] {
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type)) return node.type;
  const values = Array.isArray(node.enum) ? node.enum : "const" in node ? [node.const] : undefined;
  const typeOf = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);
  if (values) return [...new Set(values.map(typeOf))] as string[];
  return [];
}

/** A pointer's target: tool -> output schema -> the node at the dotted path, or undefined. */
export type Resolve = (tool: string, path: string) => Json | undefined;

const POINTER = /^As ([a-z_]+)\.([\w.[\]]+)\.$/;

type Warn = (path: string, rule: SchemaWarning["rule"], message: string) => void;

/** type lists, mixed-type unions (inputs) and fields of no type: one type per field. */
function checkTypes(node: Json, path: string, input: boolean, warn: Warn): void {
  if (Array.isArray(node.type)) {
    warn(
      path,
      "type-union",
      `type is a list (${JSON.stringify(node.type)}); single-type dialects take one type per field`,
    );
  }
  const branches: Json[] | undefined = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) {
    const types = new Set(branches.flatMap((b) => (isObject(b) ? typesOf(b) : [])));
    const union = [...types].join(", ") || "untyped branches";
    if (input && types.size !== 1) warn(path, "mixed-union", `a union of ${union}; give the field one type`);
  } else if (typesOf(node).length === 0) {
    warn(path, "untyped-schema", "no type, enum or const: strict dialects reject a field of any type");
  }
}

/** A nested output object names its fields and the required ones; an array says what it holds. */
function checkShape(node: Json, path: string, warn: Warn): void {
  const type = typesOf(node)[0];
  const fields = isObject(node.properties) ? Object.keys(node.properties).length : 0;
  if (type === "object" && fields === 0 && !isObject(node.additionalProperties)) {
    warn(path, "opaque-shape", "an object with no properties: name its fields");
  }
  if (type === "array" && !isObject(node.items))
    warn(path, "opaque-shape", "an array with no items schema: say what it holds");
  if (fields > 0 && !Array.isArray(node.required)) {
    warn(path, "output-required", "an output object should name its required fields (required: [...])");
  }
}

/** The sub-schemas of a node, with their paths. */
function children(node: Json, path: string): [Json, string][] {
  const out: [Json, string][] = [];
  const prefix = path ? `${path}.` : "";
  for (const [key, child] of Object.entries(isObject(node.properties) ? node.properties : {}))
    out.push([child, `${prefix}properties.${key}`]);
  if (isObject(node.items)) out.push([node.items, `${path}.items`]);
  if (isObject(node.additionalProperties)) out.push([node.additionalProperties, `${path}.additionalProperties`]);
  for (const [name, def] of Object.entries(isObject(node.$defs) ? node.$defs : {}))
    out.push([def as Json, `$defs.${name}`]);
  const branches: unknown = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) branches.forEach((b, i) => out.push([b, `${path}.anyOf[${i}]`]));
  return out;
}

export function lintSchema(
  schema: Json,
  tool: string,
  where: SchemaWarning["where"],
  resolve?: Resolve,
): SchemaWarning[] {
  const warnings: SchemaWarning[] = [];
  const warn: Warn = (path, rule, message) => warnings.push({ tool, where, path: path || "(root)", rule, message });
  const output = where === "outputSchema";
  if (!output && schema.type !== "object")
    warn("", "non-object-root", 'the input schema\'s root must be type "object"');

  const visit = (node: unknown, path: string, nested: boolean) => {
    if (!isObject(node) || typeof node.$ref === "string") return;
    checkTypes(node, path, !output, warn);
    const described = typeof node.description === "string" && !node.properties && !node.items;
    const pointer = described ? POINTER.exec(node.description) : null;
    if (output && pointer) {
      const target = resolve?.(pointer[1]!, pointer[2]!);
      const shaped = target && (isObject(target.properties) || isObject(target.items));
      if (!shaped) warn(path, "dangling-pointer", `"${node.description}" does not lead to a described shape`);
      return;
    }
    if (output && nested) checkShape(node, path, warn);
    // an anyOf branch is the same field as its parent; everything else is a nested schema
    for (const [child, at] of children(node, path)) visit(child, at, nested || !at.endsWith("]"));
  };
  visit(schema, "", false);
  return warnings;
}

/**
 * Open on purpose: a run_script step's `result` is that step tool's own structuredContent, whose
 * shape is the step tool's outputSchema (inlining all of them would double tools/list).
 */
export const OPEN_BY_DESIGN = new Set(["run_script outputSchema properties.results.items.properties.result"]);

export function lintTools(tools: { name: string; inputSchema: Json; outputSchema?: Json }[]): SchemaWarning[] {
  const outputs = new Map(tools.map((t) => [t.name, t.outputSchema]));
  const resolve: Resolve = (tool, path) => {
    let node: Json | undefined = outputs.get(tool);
    for (const part of path.split(".")) {
      const [name, ...items] = part.split("[]");
      node = name ? node?.properties?.[name] : node;
      for (let i = 0; i < items.length; i++) node = node?.items;
    }
    return node;
  };
  const all = tools.flatMap((t) => [
    ...lintSchema(t.inputSchema, t.name, "inputSchema"),
    ...(t.outputSchema ? lintSchema(t.outputSchema, t.name, "outputSchema", resolve) : []),
  ]);
  return all.filter((w) => !(w.rule === "opaque-shape" && OPEN_BY_DESIGN.has(`${w.tool} ${w.where} ${w.path}`)));
}

export const formatWarning = (w: SchemaWarning) => `${w.tool} ${w.where} ${w.path}: [${w.rule}] ${w.message}`;

if (import.meta.main) {
  const { tools } = await import("../src/catalog.ts");
  const { listTools } = await import("../src/server.ts");
  const listed = listTools(tools, "structured");
  const warnings = lintTools(listed);
  for (const w of warnings) console.log(formatWarning(w));
  console.log(`${warnings.length} warning(s) over ${listed.length} tools`);
  process.exit(warnings.length > 0 ? 1 : 0);
}
