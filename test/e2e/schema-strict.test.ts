/**
 * tools/list passes a strict single-type portability check (scripts/schema-lint.ts: the MCP
 * Inspector's schema lint rules and the single-type dialects of Gemini and OpenAI strict mode),
 * and the checker itself flags each rule. The older argument forms stay accepted.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { formatWarning, lintSchema, lintTools } from "../../scripts/schema-lint.ts";
import { connect, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c?.[Symbol.asyncDispose]();
});

test("the server's tools/list gives no strict-check warning", async () => {
  const { tools } = await c.client.listTools();
  expect(tools.length).toBeGreaterThan(20);
  expect(lintTools(tools as never).map(formatWarning)).toEqual([]);
});

describe("the checker flags each rule", () => {
  const rules = (schema: object, where: "inputSchema" | "outputSchema" = "inputSchema") =>
    lintSchema(schema, "t", where).map((w) => `${w.path} ${w.rule}`);
  test("a type list, a mixed union and an untyped field in an input", () => {
    const schema = {
      type: "object",
      properties: {
        key: { type: ["string", "object"] },
        visible: { anyOf: [{ type: "boolean" }, { const: "web" }] },
        any: {},
      },
    };
    expect(rules(schema)).toEqual([
      "properties.key type-union",
      "properties.visible mixed-union",
      "properties.any untyped-schema",
    ]);
  });
  test("an input whose root is not an object", () => {
    expect(rules({ type: "string" })).toEqual(["(root) non-object-root"]);
  });
  test("an output's nested object without fields or required, and an array without items", () => {
    const schema = {
      type: "object",
      properties: {
        screen: { type: "object" },
        rows: { type: "array" },
        cursor: { type: "object", properties: { row: { type: "number" } } },
      },
    };
    expect(rules(schema, "outputSchema")).toEqual([
      "properties.screen opaque-shape",
      "properties.rows opaque-shape",
      "properties.cursor output-required",
    ]);
  });
  test("an output may be nullable through anyOf, and its root need not list required fields", () => {
    const schema = { type: "object", properties: { exitCode: { anyOf: [{ type: "number" }, { type: "null" }] } } };
    expect(rules(schema, "outputSchema")).toEqual([]);
  });
});

describe("the older argument forms are still accepted", () => {
  test("send_keys with one chord as a string, hold_key with a key object", async () => {
    const { sessionId } = await c.ok("start_session", { command: "cat" });
    expect((await c.ok("send_keys", { sessionId, keys: "a", captureScreen: false })).keyCount).toBe(1);
    expect((await c.ok("send_keys", { sessionId, keys: [{ key: "b" }, "c"], captureScreen: false })).keyCount).toBe(2);
    expect(
      (await c.ok("hold_key", { sessionId, key: { key: "x" }, durationMs: 10, captureScreen: false })).events,
    ).toBeGreaterThan(0);
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
  });
});
