/** start_session { isolate, env: { X: null }, passEnv } over MCP: what the child sees, and its HOME gone after stop. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { connect, PLAIN_BASH, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  Object.assign(process.env, { E2E_PLANTED_TOKEN: "tok-planted", E2E_PLAIN: "plain-here" });
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  delete process.env.E2E_PLANTED_TOKEN;
  delete process.env.E2E_PLAIN;
});

let started = "";
async function shell(args: Record<string, unknown>): Promise<string> {
  const reply = await c.call("start_session", {
    ...PLAIN_BASH,
    ...args,
    env: { ...PLAIN_BASH.env, ...(args.env as object) },
  });
  started = reply.text;
  const sessionId = reply.data.sessionId as string;
  await c.ok("wait_for_text", { sessionId, pattern: "$", errorOnTimeout: true });
  return sessionId;
}

test("isolate: true gives a fresh HOME that is gone after stop_session; no planted credential; env null removes", async () => {
  const sessionId = await shell({ isolate: true, env: { E2E_PLAIN: null } });
  await c.ok("send_text", {
    sessionId,
    text: 'echo "H=$HOME T=${E2E_PLANTED_TOKEN-none} P=${E2E_PLAIN-none}" END\r',
    waitFor: { pattern: "T=none P=none END", errorOnTimeout: true },
  });
  const { text } = await c.ok("get_text", { sessionId });
  const home = /H=(\S+) T=none P=none END/.exec(text)?.[1];
  expect(home).toMatch(/tui-tester-home-[^/]+\/home$/);
  expect(started).toContain(`isolated, HOME ${home}`);
  expect(existsSync(home!)).toBe(true);
  await c.ok("stop_session", { sessionId });
  expect(existsSync(home!)).toBe(false);
});

test("not isolated: the server's HOME and plain variables, its credentials only when passEnv names them", async () => {
  const plain = await shell({});
  await c.ok("send_text", {
    sessionId: plain,
    text: 'echo "T=${E2E_PLANTED_TOKEN-none} P=$E2E_PLAIN"\r',
    waitFor: { pattern: "T=none P=plain-here", errorOnTimeout: true },
  });
  const passed = await shell({ passEnv: ["E2E_PLANTED_TOKEN"] });
  await c.ok("send_text", {
    sessionId: passed,
    text: 'echo "T=$E2E_PLANTED_TOKEN"\r',
    waitFor: { pattern: "T=tok-planted", errorOnTimeout: true },
  });
});
