/**
 * The first-input gate through MCP: programs that query their terminal at start and throw away what
 * they read while waiting for the replies (test/fixtures/query-at-start.*) get the key sent right
 * after their first screen, and the reply says the input was held.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { fixture } from "../helpers.ts";
import { connect, type TestClient } from "./client.ts";

const linux = process.platform === "linux";
let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

const programs = [
  { name: "python3", command: "python3", args: [fixture("query-at-start.py")] },
  { name: "node", command: "node", args: [fixture("query-at-start.js")] },
];

for (const program of programs) {
  test.skipIf(!linux || Bun.which(program.command) === null)(
    `${program.name}: a key sent at once after start lands, held until the program reads its terminal`,
    async () => {
      let held = 0;
      for (let run = 0; run < 5; run++) {
        const { sessionId } = await c.ok("start_session", { command: program.command, args: program.args });
        // sent before the program is through its start-up queries: without the gate it drops the key
        const sent = await c.call("send_keys", {
          sessionId,
          keys: "z",
          waitFor: { pattern: "KEY z", timeoutMs: 5000 },
        });
        if (process.env.DEBUG_GATE) console.log(sent.text.split("\n")[1]);
        expect(sent.isError).toBe(false);
        if (/Held \d+ ms until the program was through its start-up/.test(sent.text)) held++;
        const screen = await c.ok("get_text", { sessionId });
        expect(screen.text).toContain("replies: kitty, 2 colours");
        // Later inputs are never held.
        const next = await c.call("send_keys", { sessionId, keys: "y", waitFor: { pattern: "KEY y" } });
        expect(next.text).not.toContain("Held");
        await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
      }
      // whether a hold was needed depends on how far the program got before the key; at once after
      // the start it nearly always is, and the reply says so
      expect(held).toBeGreaterThan(0);
    },
  );
}

test.skipIf(!linux)("a program already waiting for its terminal is not held", async () => {
  const { sessionId } = await c.ok("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile"],
    env: { PS1: "$ " },
  });
  await c.ok("wait_for_text", { sessionId, pattern: "$" });
  await c.ok("wait_for_idle", { sessionId });
  const sent = await c.call("send_text", { sessionId, text: "echo hi\r" });
  expect(sent.text).not.toContain("Held");
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});
