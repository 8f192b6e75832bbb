/**
 * Hostile requests at the MCP surface: huge key names, oversize payloads, huge unknown arguments.
 * Each gets a short error naming the problem, and the server and its sessions carry on.
 * Payloads stay well under the SDK's 10 MiB stdio read limit (that case belongs to the transport).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { BUN, fixture } from "../helpers.ts";
import { connect, type TestClient } from "../e2e/client.ts";

let c: TestClient;
let id: string;
beforeAll(async () => {
  c = await connect();
  id = (await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] })).sessionId;
  await c.ok("wait_for_text", { sessionId: id, pattern: "READY" });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

const MB4 = 4 * 1024 * 1024;

/** The session is alive and its input path works. */
async function stillServing() {
  const result = await c.ok("send_text", { sessionId: id, text: "k", waitFor: { pattern: "KEY 6b" } });
  expect(result.waitFor.matched).toBe(true);
}

test("a 4 MB key name gets a short INVALID_KEY error, in send_keys, hold_key and a run_script step", async () => {
  const name = "x".repeat(MB4);
  for (const [tool, args] of [
    ["send_keys", { keys: name }],
    ["send_keys", { keys: ["a", `ctrl+${name}`] }],
    ["hold_key", { key: { key: name, ctrl: true } }],
    ["run_script", { steps: [{ type: "send_keys", keys: name }] }],
  ] as const) {
    const result = await c.call(tool, { sessionId: id, ...args });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("INVALID_KEY");
    expect(result.text).toContain("Key name too long");
    expect(result.text.length).toBeLessThan(1000);
  }
  await stillServing();
});

test("payloads over 1 MiB are refused with a hint to split them; nothing is sent", async () => {
  const big = "y".repeat(MB4);
  for (const [tool, args] of [
    ["send_text", { text: big }],
    ["paste", { text: big }],
    ["type_text", { text: big }],
    ["send_raw", { utf8: big }],
    ["send_raw", { hex: "79".repeat(1024 * 1024 + 1) }],
    ["run_script", { steps: [{ type: "send_text", text: big }] }],
  ] as const) {
    const result = await c.call(tool, { sessionId: id, ...args });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("INVALID_ARGUMENT");
    expect(result.data.error.message).toContain("at most 1048576");
    expect(result.data.error.hint).toContain("Split");
    expect(result.text.length).toBeLessThan(1000);
  }
  const raw = await c.ok("get_raw_output", { sessionId: id });
  expect(raw.output).not.toContain("7979797979");
  await stillServing();
});

test("exactly 1 MiB is accepted", async () => {
  // a reader that discards its input, so the megabyte does not flood the shared session's screen
  const sink = (await c.ok("start_session", { command: "bash", args: ["-c", "stty raw -echo; cat > /dev/null"] }))
    .sessionId;
  const result = await c.call("send_raw", { sessionId: sink, hex: "61".repeat(1024 * 1024), captureScreen: false });
  expect(result.isError).toBe(false);
  expect(result.data.bytesSent).toBe(1024 * 1024);
  await c.ok("stop_session", { sessionId: sink, signal: "SIGKILL" });
});

test("a huge unknown argument name and huge bad values are not echoed back", async () => {
  const huge = "z".repeat(MB4);
  const unknown = await c.call("get_text", { sessionId: id, [huge]: 1 });
  expect(unknown.data.error.code).toBe("INVALID_ARGUMENT");
  expect(unknown.text).toContain("unknown argument");
  expect(unknown.text.length).toBeLessThan(1000);
  const badHex = await c.call("send_raw", { sessionId: id, hex: `zz${huge}` });
  expect(badHex.text.length).toBeLessThan(1000);
  const badSession = await c.call("get_text", { sessionId: huge });
  expect(badSession.text).toContain("Session not found");
  expect(badSession.text.length).toBeLessThan(1000);
  const badPattern = await c.call("wait_for_text", { sessionId: id, pattern: `(${huge}`, regex: true, timeoutMs: 10 });
  expect(badPattern.isError).toBe(true);
  expect(badPattern.text.length).toBeLessThan(2000);
  await stillServing();
});
