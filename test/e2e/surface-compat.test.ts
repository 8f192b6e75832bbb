/** Compatibility with the original version's arguments and behaviours, and argument errors that help. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BUN, fixture } from "../helpers.ts";
import { connect, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

const echoKeys = async () => {
  const started = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] });
  await c.ok("wait_for_text", { sessionId: started.sessionId, pattern: "READY" });
  return started.sessionId as string;
};

describe("the original's argument names", () => {
  test("send_keys and send_text accept flushAfter (the screen is always read after a flush)", async () => {
    const id = await echoKeys();
    const keys = await c.ok("send_keys", {
      sessionId: id,
      keys: "F5",
      flushAfter: true,
      waitFor: { pattern: "1b5b31357e" },
    });
    expect(keys.waitFor.matched).toBe(true);
    const text = await c.ok("send_text", {
      sessionId: id,
      text: "z",
      flushAfter: false,
      waitFor: { pattern: "KEY 7a" },
    });
    expect(text.bytesSent).toBe(1);
  });

  test("get_exit_info: outputTailBytes (and tailBytes) size the tail; the default is small", async () => {
    const started = await c.ok("start_session", {
      command: "bash",
      args: ["-c", "for i in $(seq 1 400); do echo line-$i; done; exit 3"],
    });
    let info = await c.ok("get_exit_info", { sessionId: started.sessionId });
    for (let i = 0; i < 200 && !info.exited; i++)
      info =
        (await c.ok("wait_for_idle", { sessionId: started.sessionId, idleMs: 20 }),
        await c.ok("get_exit_info", { sessionId: started.sessionId }));
    expect(info.exitCode).toBe(3);
    expect(Buffer.byteLength(info.tail)).toBeLessThanOrEqual(200);
    expect(info.tail).toContain("line-400");
    expect(info.screenTail.split("\n").length).toBeLessThanOrEqual(5);
    expect(info.screenTail).toContain("line-400");
    const wide = await c.ok("get_exit_info", { sessionId: started.sessionId, outputTailBytes: 1000 });
    expect(Buffer.byteLength(wide.tail)).toBe(1000);
    const old = await c.ok("get_exit_info", { sessionId: started.sessionId, tailBytes: 50 });
    expect(Buffer.byteLength(old.tail)).toBe(50);
  });

  test("run_script: returnFinalSnapshot false leaves the final screen out; rawOutputTailBytes bounds the raw output", async () => {
    const id = await echoKeys();
    const result = await c.ok("run_script", {
      sessionId: id,
      returnFinalSnapshot: false,
      includeRawOutput: true,
      rawOutputTailBytes: 8,
      steps: [{ type: "send_text", text: "abcdef", flushAfter: true, waitFor: { pattern: "KEY 616263646566" } }],
    });
    expect(result.finalSnapshot).toBeUndefined();
    expect(result.rawOutput.output.length).toBeLessThanOrEqual(8);
    expect(result.rawOutput.truncated).toBe(true);
    const withScreen = await c.ok("run_script", { sessionId: id, steps: [{ type: "sleep", durationMs: 1 }] });
    expect(withScreen.finalSnapshot.text).toContain("READY");
  });
});

describe("differences resolved", () => {
  test("list_sessions entries carry id (and sessionId); an unknown session says Session not found", async () => {
    const id = await echoKeys();
    const listed = await c.ok("list_sessions");
    const entry = listed.sessions.find((s: { id: string }) => s.id === id);
    expect(entry.sessionId).toBe(id);
    const missing = await c.call("get_text", { sessionId: "tui-missing-9" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("Session not found");
  });

  test("send_text with empty text sends nothing and still observes the screen", async () => {
    const id = await echoKeys();
    const result = await c.call("send_text", { sessionId: id, text: "" });
    expect(result.isError).toBe(false);
    expect(result.data.bytesSent).toBe(0);
    expect(result.data.screen.diff.identical).toBe(true);
    expect(result.text).toContain("Screen unchanged");
  });

  test("a failed run_script is an error result carrying the whole step report", async () => {
    const id = await echoKeys();
    const result = await c.call("run_script", {
      sessionId: id,
      steps: [
        { type: "send_text", text: "q", label: "type q" },
        { type: "assert_text", pattern: "NEVER-THERE" },
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.data).toMatchObject({ ok: false, stepsRun: 2, stoppedAtStep: 1 });
    expect(result.data.results[0]).toMatchObject({ ok: true, label: "type q" });
    expect(result.data.results[1].error.code).toBe("ASSERTION_FAILED");
    expect(result.text).toContain("Step 1 assert_text FAILED ASSERTION_FAILED");
    expect(result.text).toContain('Step 0 send_text "type q" ok');
  });
});

describe("unknown arguments", () => {
  test("the error names the argument, lists the valid ones and suggests the nearest", async () => {
    const id = await echoKeys();
    const result = await c.call("send_keys", { sessionId: id, keys: "a", waitAfter: 10 });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("INVALID_ARGUMENT");
    expect(result.text).toContain('unknown argument "waitAfter"');
    expect(result.text).toContain('did you mean "waitAfterMs"?');
    expect(result.text).toContain("valid: sessionId, keys, captureScreen, waitAfterMs, waitFor, screenDetail");
    expect(result.text).not.toContain("Expected never");
  });

  test("nested and run_script step arguments are named with their path", async () => {
    const id = await echoKeys();
    const nested = await c.call("send_text", { sessionId: id, text: "x", waitFor: { pattern: "x", timeout: 5 } });
    expect(nested.text).toContain('unknown argument "timeout" in waitFor (did you mean "timeoutMs"?)');
    const step = await c.call("run_script", { sessionId: id, steps: [{ type: "wait_for_text", patern: "x" }] });
    expect(step.isError).toBe(true);
    expect(step.text).toContain("steps[0] (wait_for_text)");
    expect(step.text).toContain('unknown argument "patern" (did you mean "pattern"?)');
  });
});

describe("run_script sleeps end promptly", () => {
  test("on stop_session", async () => {
    const id = await echoKeys();
    const script = c.call("run_script", {
      sessionId: id,
      steps: [
        { type: "sleep", durationMs: 600_000 },
        { type: "send_text", text: "after" },
      ],
    });
    // the sleep has begun once the script holds the session; stop it from outside
    await c.ok("stop_session", { sessionId: id, signal: "SIGKILL" });
    const result = await script;
    expect(result.data.results[0].result.endedEarly).toBe("session exited");
    expect(result.data.results[1].error.code).toBe("SESSION_EXITED");
  });

  test("on client cancel, and the session is free for the next call", async () => {
    const id = await echoKeys();
    const abort = new AbortController();
    const script = c.call(
      "run_script",
      { sessionId: id, steps: [{ type: "sleep", durationMs: 600_000 }] },
      { signal: abort.signal },
    );
    // a cheap call on another session proves the server is serving while the script sleeps
    await c.ok("list_sessions");
    abort.abort();
    await expect(script).rejects.toThrow();
    // the next call on the same session would queue behind a still-running sleep
    const after = await c.ok("send_text", { sessionId: id, text: "k", waitFor: { pattern: "KEY 6b" } });
    expect(after.waitFor.matched).toBe(true);
  });
});
