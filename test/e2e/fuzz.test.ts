/** Thousands of random and malformed argument objects: every call gets an answer and the server lives. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BUN, fixture } from "../helpers.ts";
import { connect, type TestClient } from "./client.ts";

let c: TestClient;
let sessionId: string;
// screenshot and start_recording write to random paths: keep them in a scratch directory
const scratch = mkdtempSync(join(tmpdir(), "tui-tester-fuzz-"));
beforeAll(async () => {
  c = await connect({ cwd: scratch, env: { TUI_TESTER_OUTPUT_DIR: scratch } });
  sessionId = (await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] })).sessionId;
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  rmSync(scratch, { recursive: true, force: true });
});

/** A fixed seed: a failure found here is found again on the next run (fast-check prints it too). */
const SEED = 22;

const value = fc.letrec((tie) => ({
  any: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(-1),
    fc.constant(1e12),
    fc.array(tie("any"), { maxLength: 3 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie("any"), { maxKeys: 3 }),
  ),
})).any;

test("random arguments to every tool get a result, never a crash", async () => {
  const { tools } = await c.client.listTools();
  const destructive = new Set(["stop_session", "start_session"]);
  let calls = 0;
  let errors = 0;
  for (const [index, tool] of tools.entries()) {
    const keys = Object.keys((tool.inputSchema.properties ?? {}) as object);
    const args = fc.dictionary(fc.constantFrom(...keys, "bogus"), value, { maxKeys: 5 });
    // half the calls aim at the live session so they get past the id check
    const withSession = args.map((a) => ({ ...a, sessionId }));
    const samples = fc.sample(fc.oneof(args, withSession, fc.constant({})), {
      numRuns: destructive.has(tool.name) ? 40 : 150,
      seed: SEED + index,
    });
    for (const sample of samples) {
      if (
        tool.name === "start_session" ||
        (tool.name === "stop_session" && (sample as { sessionId?: unknown }).sessionId === sessionId)
      )
        continue;
      if ("durationMs" in sample || "timeoutMs" in sample || "idleMs" in sample) continue; // keep the run short
      const result = await c.call(tool.name, sample as Record<string, unknown>);
      expect(typeof result.text).toBe("string");
      // an error names its problem; a success has structured content
      expect(result.isError ? result.data.error.message.length > 0 : typeof result.data === "object").toBe(true);
      errors += result.isError ? 1 : 0;
      calls++;
    }
  }
  expect(calls).toBeGreaterThan(2000);
  // both paths were exercised: bad arguments rejected with a message, good ones answered
  expect(errors).toBeGreaterThan(0);
  expect(errors).toBeLessThan(calls);
  expect(
    (await c.ok("list_sessions")).sessions.find((s: { sessionId: string }) => s.sessionId === sessionId).state,
  ).toBe("running");
}, 240_000);
