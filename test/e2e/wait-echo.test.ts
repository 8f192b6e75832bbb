/**
 * Waits after an input do not match the terminal's echo of what was typed, only the program's output
 * (and the echo again with matchEcho: true). Commands block on `read` so no case depends on timing:
 * the output cannot exist until the test sends the next line.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connect, PLAIN_BASH, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

async function bash(extra: Record<string, unknown> = {}): Promise<string> {
  const { sessionId } = await c.ok("start_session", { ...PLAIN_BASH, ...extra });
  await c.ok("wait_for_text", { sessionId, pattern: "$ ", timeoutMs: 10_000 });
  return sessionId;
}
const stop = (sessionId: string) => c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
const rowsOf = (text: string) => text.split("\n").map((row) => row.trimEnd());

describe("echo-aware waits (bash)", () => {
  test("an inline waitFor skips the echoed command line and matches the output", async () => {
    const sessionId = await bash();
    const held = await c.ok("send_text", {
      sessionId,
      text: "read -r _; echo FINISHED\r",
      waitFor: { pattern: "FINISHED", timeoutMs: 300 },
    });
    expect(held.waitFor).toMatchObject({ matched: false, timedOut: true });
    const done = await c.ok("send_text", {
      sessionId,
      text: "\r",
      waitFor: { pattern: "FINISHED", timeoutMs: 10_000 },
    });
    expect(done.waitFor.matched).toBe(true);
    expect(rowsOf(done.screen.after.text)).toContain("FINISHED");
    await stop(sessionId);
  });

  test("a pattern that runs from the echoed line into the output (the next prompt) matches", async () => {
    const sessionId = await bash();
    const r = await c.ok("send_text", {
      sessionId,
      text: "true\r",
      waitFor: { pattern: "$ true\n$ ", timeoutMs: 10_000 },
    });
    expect(r.waitFor.matched).toBe(true);
    const held = await c.ok("send_text", {
      sessionId,
      text: "read -r _; echo TAIL\r",
      waitFor: { pattern: "read.*TAIL", regex: true, timeoutMs: 300 },
    });
    expect(held.waitFor.matched).toBe(false); // a regex made only of the echo is skipped too
    await stop(sessionId);
  });

  test("matchEcho: true matches the echo (the opt-out)", async () => {
    const sessionId = await bash();
    const r = await c.ok("send_text", {
      sessionId,
      text: "read -r _; echo ECHOED\r",
      waitFor: { pattern: "ECHOED", matchEcho: true, timeoutMs: 10_000 },
    });
    expect(r.waitFor.matched).toBe(true);
    expect(rowsOf(r.screen.after.text)).not.toContain("ECHOED");
    await stop(sessionId);
  });

  test("wait_for_text after an input, run_script steps and the same text elsewhere on the screen", async () => {
    const sessionId = await bash();
    await c.ok("send_text", { sessionId, text: "echo SEEN; read -r _; echo SEEN2\r" });
    // SEEN is output (its own row) while SEEN2 is only in the echo
    expect((await c.ok("wait_for_text", { sessionId, pattern: "SEEN", timeoutMs: 5000 })).matched).toBe(true);
    const missed = await c.call("wait_for_text", { sessionId, pattern: "SEEN2", timeoutMs: 300 });
    expect(missed.isError).toBe(true);
    expect(missed.text).toContain('"SEEN2" did not appear within 300 ms');
    const script = await c.call("run_script", {
      sessionId,
      steps: [
        { type: "wait_for_text", pattern: "SEEN2", timeoutMs: 200, optional: true },
        { type: "send_text", text: "\r", waitFor: { pattern: "SEEN2", timeoutMs: 10_000, errorOnTimeout: true } },
      ],
    });
    expect(script.isError).toBe(false);
    expect(script.data.results[0].result.matched).toBe(false);
    expect(script.data.results[1].result.waitFor.matched).toBe(true);
    expect(rowsOf((await c.ok("get_text", { sessionId })).text)).toContain("SEEN2");
    await stop(sessionId);
  });

  test("a program that prints the typed text itself: that is output and matches", async () => {
    const sessionId = await bash();
    await c.ok("send_text", { sessionId, text: 'read x; echo "$x"\r' });
    const r = await c.ok("send_text", { sessionId, text: "hello\r", waitFor: { pattern: "hello", timeoutMs: 10_000 } });
    expect(r.waitFor.matched).toBe(true);
    expect(rowsOf(r.screen.after.text).filter((row) => row === "hello").length).toBe(2);
    await c.ok("send_text", { sessionId, text: "cat\r" });
    const cat = await c.ok("send_text", { sessionId, text: "meow\r", waitFor: { pattern: "meow", timeoutMs: 10_000 } });
    expect(rowsOf(cat.screen.after.text).filter((row) => row === "meow").length).toBe(2);
    await stop(sessionId);
  });

  test("a command that wraps past the line end, edited with Backspace and readline moves", async () => {
    const sessionId = await bash({ cols: 40 });
    const typed = `read -r _; echo ${"x".repeat(24)} WRAPMARKQ\x7f\x01\x05\r`;
    const held = await c.ok("send_text", { sessionId, text: typed, waitFor: { pattern: "WRAPMARK", timeoutMs: 300 } });
    expect(held.waitFor.matched).toBe(false);
    // the marker really is on the wrapped row of the echo
    expect(rowsOf(held.screen.after.text).some((row) => row.includes("WRAPMARK") && !row.startsWith("$"))).toBe(true);
    const done = await c.ok("send_text", {
      sessionId,
      text: "\r",
      waitFor: { pattern: "WRAPMARK", timeoutMs: 10_000 },
    });
    expect(done.waitFor.matched).toBe(true);
    expect(rowsOf(done.screen.after.text)).toContain(`${"x".repeat(24)} WRAPMARK`);
    await stop(sessionId);
  });

  test("type_text (a character at a time) and a bracketed paste are inputs whose echo is skipped", async () => {
    const sessionId = await bash({ args: ["--norc", "--noprofile", "-o", "emacs"] });
    const typed = await c.ok("type_text", {
      sessionId,
      text: "read -r _; echo TYPEDMARK\r",
      cps: 500,
      waitFor: { pattern: "TYPEDMARK", timeoutMs: 300 },
    });
    expect(typed.waitFor.matched).toBe(false);
    const done = await c.ok("send_text", {
      sessionId,
      text: "\r",
      waitFor: { pattern: "TYPEDMARK", timeoutMs: 10_000 },
    });
    expect(rowsOf(done.screen.after.text)).toContain("TYPEDMARK");
    const pasted = await c.ok("paste", {
      sessionId,
      text: "read -r _; echo PASTEMARK",
      waitFor: { pattern: "PASTEMARK", timeoutMs: 300 },
    });
    expect(pasted.waitFor.matched).toBe(false);
    expect(pasted.screen.after.text).toContain("echo PASTEMARK");
    await stop(sessionId);
  });

  test("the echo stays skipped after the screen scrolls", async () => {
    const sessionId = await bash();
    await c.ok("send_text", { sessionId, text: "seq 1 40\r", waitFor: { pattern: "40\n$ " } });
    await c.ok("send_text", { sessionId, text: "seq 1 10; read -r _; echo SCROLLMARK\r", waitFor: { pattern: "10" } });
    const missed = await c.ok("wait_for_text", {
      sessionId,
      pattern: "SCROLLMARK",
      timeoutMs: 300,
      errorOnTimeout: false,
    });
    expect(missed.matched).toBe(false);
    expect(missed.screen.text).toContain("echo SCROLLMARK");
    await stop(sessionId);
  });

  test("lines typed after an Enter in one input are echoed at the next prompt and skipped there too", async () => {
    const sessionId = await bash();
    const r = await c.ok("send_text", {
      sessionId,
      text: "echo FIRST\rread -r _; echo SECONDMARK\r",
      waitFor: { pattern: "SECONDMARK", timeoutMs: 500 },
    });
    expect(r.waitFor.matched).toBe(false);
    expect(r.screen.after.text).toContain("echo SECONDMARK");
    await stop(sessionId);
  });
});

describe("anyOf", () => {
  test("returns on the first to appear, says which in data and text; a timeout lists them all", async () => {
    const sessionId = await bash();
    const r = await c.call("send_text", {
      sessionId,
      text: "echo build: er''ror 42\r",
      waitFor: { anyOf: ["Compiled", "error"], timeoutMs: 10_000 },
    });
    expect(r.data.waitFor).toMatchObject({
      matched: true,
      matchedIndex: 1,
      pattern: "error",
      anyOf: ["Compiled", "error"],
    });
    expect(r.text).toContain('"error" (anyOf[1]) matched');
    const miss = await c.call("wait_for_text", { sessionId, anyOf: ["NOPE1", "NOPE2"], timeoutMs: 200 });
    expect(miss.isError).toBe(true);
    expect(miss.text).toContain('anyOf ["NOPE1","NOPE2"] did not appear within 200 ms');
    const both = await c.call("wait_for_text", { sessionId, anyOf: ["a"], pattern: "b" });
    expect(both.isError).toBe(true);
    expect(both.text).toContain("pattern and anyOf were both given");
    const neither = await c.call("wait_for_text", { sessionId });
    expect(neither.text).toContain("No pattern to wait for");
    await stop(sessionId);
  });

  test("the JSON Schema gives each field one type", async () => {
    const { tools } = await c.client.listTools();
    const wait = tools.find((t) => t.name === "wait_for_text")!;
    const props = wait.inputSchema.properties as Record<string, { type?: string; items?: { type?: string } }>;
    expect(props.anyOf!.type).toBe("array");
    expect(props.anyOf!.items!.type).toBe("string");
    expect(props.pattern!.type).toBe("string");
    expect(props.matchEcho!.type).toBe("boolean");
  });
});

describe("exit-ended waits", () => {
  test("name the exit code and when, with the screen, in the text view", async () => {
    const sessionId = await bash();
    const r = await c.call("send_text", {
      sessionId,
      text: "echo leaving; exit 3\r",
      waitFor: { pattern: "NEVER", timeoutMs: 30_000, errorOnTimeout: true },
    });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/did not appear: the program exited \(exit code 3\) \d+ ms into the wait/);
    expect(r.text).toContain("leaving");
    const w = await c.call("wait_for_text", { sessionId, pattern: "NEVER", timeoutMs: 30_000 });
    expect(w.isError).toBe(true);
    expect(w.text).toContain("the program had exited (exit code 3) before the wait");
    expect(w.data.exit).toMatchObject({ exitCode: 3, signal: null });
    expect(w.text).toContain("leaving");
  });
});
