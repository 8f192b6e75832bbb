/** Locks the public surface: names, annotations and JSON Schemas of tools/list. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

const REFERENCE_TOOLS = [
  "start_session", "stop_session", "list_sessions", "run_script", "send_keys", "send_text", "send_raw", "hold_key", "type_text",
  "snapshot", "get_text", "get_cursor", "wait_for_text", "wait_for_idle", "resize", "start_monitor", "stop_monitor",
  "diff_snapshots", "get_exit_info", "get_raw_output",
];

test("tools/list matches the committed snapshot (update with `bun test --update-snapshots` on purpose)", async () => {
  const { tools } = await c.client.listTools();
  expect(tools.map((t) => ({ name: t.name, title: t.title, annotations: t.annotations, inputSchema: t.inputSchema }))).toMatchSnapshot();
});

test("every reference tool exists, with annotations and a short description", async () => {
  const { tools } = await c.client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of REFERENCE_TOOLS) expect(names).toContain(name);
  for (const tool of tools) {
    expect(tool.annotations).toMatchObject({ title: expect.any(String), readOnlyHint: expect.any(Boolean), destructiveHint: expect.any(Boolean), idempotentHint: expect.any(Boolean), openWorldHint: expect.any(Boolean) });
    expect(tool.description!.length).toBeLessThan(600);
    expect(tool.inputSchema.type).toBe("object");
  }
});

test("documented defaults are in the JSON Schema", async () => {
  const { tools } = await c.client.listTools();
  const sendKeys = tools.find((t) => t.name === "send_keys")!;
  const waitFor = (sendKeys.inputSchema.properties as Record<string, any>).waitFor;
  expect(waitFor.properties.timeoutMs.default).toBe(5000);
  expect(waitFor.properties.pollIntervalMs.default).toBe(50);
  expect(waitFor.properties.matchScreen.default).toBe(true);
  expect(sendKeys.inputSchema.required).toEqual(["sessionId", "keys"]);
});

test("an unknown tool is a protocol error, and the server stays up", async () => {
  await expect(c.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/Unknown tool/);
  expect((await c.ok("list_sessions")).count).toBe(0);
});
