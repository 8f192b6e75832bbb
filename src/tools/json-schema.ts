/** valibot -> JSON Schema, once at start-up. A schema that cannot convert fails a unit test. */
import { toJsonSchema } from "@valibot/to-json-schema";
import type { ToolDef } from "./define.ts";

export function inputJsonSchema(tool: ToolDef): { type: "object"; [key: string]: unknown } {
  // typeMode "input": fields with defaults are optional for the caller. Transforms (clamps) have no
  // JSON Schema form and are ignored; their bounds are stated in the field descriptions.
  const schema = toJsonSchema(tool.input, { typeMode: "input", errorMode: "ignore", target: "draft-07" }) as Record<string, unknown>;
  delete schema.$schema;
  return { ...schema, type: "object" };
}
