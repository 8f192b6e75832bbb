/**
 * Locks the public surface: names, annotations and JSON Schemas of tools/list, in the default text mode
 * (no outputSchema) and the outputSchemas of structured mode; and what tools/list costs in each.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { connect, type TestClient } from "./client.ts";

/** The default server (TUI_TESTER_OUTPUT unset: text), and one with TUI_TESTER_OUTPUT=structured. */
let c: TestClient;
let structured: TestClient;
beforeAll(async () => {
  c = await connect({ env: { TUI_TESTER_OUTPUT: "" } }); // empty counts as unset: the default
  structured = await connect({ env: { TUI_TESTER_OUTPUT: "structured" } });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  await structured[Symbol.asyncDispose]();
});

const tokensOf = async (env: Record<string, string>) => {
  await using server = await connect({ env });
  return countTokens(JSON.stringify((await server.client.listTools()).tools));
};

const REFERENCE_TOOLS = [
  "start_session",
  "stop_session",
  "list_sessions",
  "run_script",
  "send_keys",
  "send_text",
  "send_raw",
  "hold_key",
  "type_text",
  "snapshot",
  "get_text",
  "get_cursor",
  "wait_for_text",
  "wait_for_idle",
  "resize",
  "start_monitor",
  "stop_monitor",
  "diff_snapshots",
  "get_exit_info",
  "get_raw_output",
];

test("tools/list matches the committed snapshot (update with `bun test --update-snapshots` on purpose)", async () => {
  const { tools } = await c.client.listTools();
  expect(
    tools.map((t) => ({
      name: t.name,
      title: t.title,
      annotations: t.annotations,
      inputSchema: t.inputSchema,
    })),
  ).toMatchSnapshot();
  for (const tool of tools) expect(tool.outputSchema, tool.name).toBeUndefined();
});

test("structured mode's outputSchemas match the committed snapshot; its input side is the default's", async () => {
  const { tools } = await structured.client.listTools();
  expect(tools.map((t) => ({ name: t.name, outputSchema: t.outputSchema }))).toMatchSnapshot();
  const { tools: text } = await c.client.listTools();
  expect(tools.map(({ outputSchema: _, ...rest }) => rest)).toEqual(text);
});

test("every reference tool exists, with annotations and a short description", async () => {
  const { tools } = await c.client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of REFERENCE_TOOLS) expect(names).toContain(name);
  for (const tool of tools) {
    expect(tool.title).toEqual(expect.any(String));
    // hints equal to the MCP defaults are left out; none of our tools reaches an open world
    expect(tool.annotations?.openWorldHint).toBe(false);
    expect(tool.description!.length).toBeLessThan(600);
    expect(tool.inputSchema.type).toBe("object");
  }
  for (const tool of (await structured.client.listTools()).tools) expect(tool.outputSchema?.type).toBe("object");
});

test("documented defaults are in the JSON Schema; shared fields are described once", async () => {
  const { tools } = await c.client.listTools();
  const props = (name: string) => tools.find((t) => t.name === name)!.inputSchema.properties as Record<string, any>;
  const wait = props("wait_for_text");
  expect(wait.timeoutMs.default).toBe(5000);
  expect(wait.pollIntervalMs.default).toBe(50);
  expect(wait.matchScreen.default).toBe(true);
  expect(tools.find((t) => t.name === "send_keys")!.inputSchema.required).toEqual(["sessionId", "keys"]);
  expect(props("send_keys").waitFor.description).toContain("wait_for_text");
  expect(props("send_text").waitFor.description).toBe("As send_keys.waitFor.");
  expect(props("send_text").captureScreen).toEqual({ type: "boolean", default: true });
  // keys are listed with one type (a list of chord strings); one string and key objects are still accepted
  const sendKeys = tools.find((t) => t.name === "send_keys")!.inputSchema as Record<string, any>;
  expect(sendKeys.properties.keys).toMatchObject({ type: "array", items: { type: "string" } });
  expect(JSON.stringify(sendKeys)).not.toContain("anyOf");
  // run_script names the fields of its script-only steps
  const runScript = tools.find((t) => t.name === "run_script")!.description!;
  for (const step of ["sleep {durationMs}", "assert_text {pattern,", "expect_snapshot {name, format, region,"])
    expect(runScript).toContain(step);
});

// Every tool, text mode (no outputSchema, string lengths left out): about 5,170 of the 6,000 budget, which
// leaves room for the tools and fields still to come. Structured mode adds the outputSchemas, each nested
// shape described once and pointed at elsewhere: about 8,400 (the earlier version's 20 tools: 11,100).
// The core set is for clients that pay per tool.
test("tools/list costs at most 6,000 o200k tokens, and run_script does not inline the step tools", async () => {
  const { tools } = await c.client.listTools();
  expect(countTokens(JSON.stringify(tools))).toBeLessThanOrEqual(6000);
  const runScript = tools.find((t) => t.name === "run_script")!;
  const step = (runScript.inputSchema.properties as Record<string, any>).steps.items;
  expect(Object.keys(step.properties)).toEqual(["type", "label", "continueOnError", "optional"]);
  expect(step.properties.type.enum).toContain("assert_text");
});

test("TUI_TESTER_TOOLS=core costs at most 2,500 tokens; structured mode at most 9,000", async () => {
  expect(await tokensOf({ TUI_TESTER_OUTPUT: "text", TUI_TESTER_TOOLS: "core" })).toBeLessThanOrEqual(2500);
  expect(countTokens(JSON.stringify((await structured.client.listTools()).tools))).toBeLessThanOrEqual(9000);
});

test("an unknown tool is a protocol error, and the server stays up", async () => {
  await expect(c.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
  expect((await c.ok("list_sessions")).count).toBeUndefined(); // text mode: no structuredContent
  expect((await c.call("list_sessions")).text).toStartWith("0 session(s)");
});
