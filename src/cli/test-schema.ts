/**
 * The shape of a test file, in one place: the valibot schema the loader checks files with, and the
 * JSON Schema for editors (schema/tui-test.schema.json, named by a file's "$schema") built from it
 * and from the same start_session and step schemas the loader checks "session" and "steps" against.
 */
import * as v from "valibot";
import { runScriptTool, scriptSteps } from "../catalog.ts";
import { inputJsonSchema, toJson } from "../tools/json-schema.ts";
import { startSessionTool } from "../tools/session-tools.ts";

export const testSchema = v.strictObject({
  $schema: v.optional(v.pipe(v.string(), v.description("Path or URL of this JSON Schema, for editors."))),
  name: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(200),
    v.description("Unique in its file; reports and --filter use it."),
  ),
  session: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description("start_session's arguments; cwd is relative to the test file."),
  ),
  steps: v.pipe(
    v.array(v.record(v.string(), v.unknown())),
    v.minLength(1),
    v.maxLength(1000),
    v.description("run_script steps."),
  ),
  defaults: runScriptTool.input.entries.defaults,
  timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(3_600_000))),
  retries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10))),
  skip: v.optional(v.boolean(), false),
});

type Json = Record<string, any>;

/** Step fields the runner owns (expect_snapshot's dir and update) or the session supplies. */
const NOT_IN_FILES = new Set(["sessionId", "dir", "update"]);
/** Session fields that make no sense in a headless test run. */
const NOT_IN_SESSION = new Set(["visible", "viewerCommand"]);

function stepJsonSchema(tool: (typeof scriptSteps)[number]): Json {
  const schema = inputJsonSchema(tool, false) as Json;
  const properties: Json = { type: { const: tool.name } };
  for (const [key, value] of Object.entries(schema.properties ?? {}))
    if (!NOT_IN_FILES.has(key)) properties[key] = value;
  const own = toJson(runScriptTool.input.entries.steps) as Json;
  for (const key of ["label", "continueOnError", "optional"]) properties[key] = own.items.properties[key];
  const required = ["type", ...(schema.required ?? []).filter((k: string) => !NOT_IN_FILES.has(k))];
  return {
    type: "object",
    title: tool.name,
    description: tool.description,
    properties,
    required,
    additionalProperties: false,
  };
}

export function testFileJsonSchema(): Json {
  const test = toJson(testSchema) as Json;
  const session = inputJsonSchema(startSessionTool, false) as Json;
  for (const key of NOT_IN_SESSION) delete session.properties[key];
  session.required = ["command"];
  session.additionalProperties = false;
  test.properties.session = { ...session, description: test.properties.session.description };
  test.properties.steps = { ...test.properties.steps, items: { anyOf: scriptSteps.map(stepJsonSchema) } };
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    title: "tui-tester test file",
    description: "One test or a list of tests for `tui-tester test` (*.tui.json, *.tui.yaml).",
    anyOf: [{ $ref: "#/definitions/test" }, { type: "array", minItems: 1, items: { $ref: "#/definitions/test" } }],
    definitions: { test },
  };
}
