/** Patterns match the screen as displayed: prompts that end in a space, regex $ and the m flag. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, PLAIN_BASH, type TestClient } from "./client.ts";
import { lacks } from "../helpers.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

describe("bash prompt", () => {
  test('"$ " matches at once, and regex $ / m behave as documented', async () => {
    const { sessionId } = await c.ok("start_session", PLAIN_BASH);
    const waited = await c.ok("wait_for_text", { sessionId, pattern: "$ ", timeoutMs: 10_000 });
    expect(waited).toMatchObject({ matched: true, match: "$ " });
    await c.ok("send_text", { sessionId, text: "echo one; echo two\r", waitFor: { pattern: "two\n$ " } });
    // regexes see rows right-trimmed: "$" is the end of the last non-blank row, "m" makes it every row
    expect((await c.ok("wait_for_text", { sessionId, pattern: "\\$$", regex: true, timeoutMs: 1000 })).matched).toBe(
      true,
    );
    expect(
      (await c.ok("wait_for_text", { sessionId, pattern: "^one$", regex: true, regexFlags: "m", timeoutMs: 1000 }))
        .matched,
    ).toBe(true);
    expect(
      (await c.call("wait_for_text", { sessionId, pattern: "^one$", regex: true, timeoutMs: 200 })).data.matched,
    ).toBe(false);
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });
});

describe.skipIf(lacks("python3", "the python prompt tests"))("python prompt", () => {
  test('">>> " matches at once, as a wait and as an inline waitFor', async () => {
    const { sessionId } = await c.ok("start_session", {
      command: "python3",
      args: ["-q", "-i"],
      env: { PYTHONSTARTUP: "" },
      cols: 80,
      rows: 24,
    });
    expect(await c.ok("wait_for_text", { sessionId, pattern: ">>> ", timeoutMs: 10_000 })).toMatchObject({
      matched: true,
      match: ">>> ",
    });
    const r = await c.ok("send_text", {
      sessionId,
      text: "6*7\r",
      waitFor: { pattern: "42\n>>> ", timeoutMs: 10_000 },
    });
    expect(r.waitFor.matched).toBe(true);
    await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });
});
