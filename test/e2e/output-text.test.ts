/**
 * TUI_TESTER_OUTPUT=text, the default: every result carries only `content` (no structuredContent), tools/list
 * declares no outputSchema, and the text alone tells the model everything it needs: ids, the settle line, the
 * wait's match, exit status, file paths, errors with their code and fix. A model in this mode finds every id it
 * passes on in the text, so this file does too. (Structured mode, every result against its outputSchema:
 * surface-render.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUN, fixture } from "../helpers.ts";
import { connect, connectStdio, type TestClient } from "./client.ts";

type Part = { type: string; text?: string; mimeType?: string; uri?: string; data?: string };
interface TextResult {
  isError: boolean;
  text: string;
  content: Part[];
}

const outputDir = mkdtempSync(join(tmpdir(), "output-text-"));
let c: TestClient;
const seen = new Set<string>();

beforeAll(async () => {
  c = await connect({ env: { TUI_TESTER_OUTPUT: "text", TUI_TESTER_OUTPUT_DIR: outputDir } });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  rmSync(outputDir, { recursive: true, force: true });
});

const bytes = (s: string) => Buffer.byteLength(s, "utf8");

/** A call in text mode: never structuredContent; an error's text starts with its code, message and fix. */
async function call(client: TestClient, name: string, args: Record<string, unknown> = {}): Promise<TextResult> {
  const result = await client.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
  expect(result.structuredContent, `${name} result`).toBeUndefined();
  const content = result.content as Part[];
  expect(content[0]?.type).toBe("text");
  const text = content[0]!.text!;
  if (result.isError) expect(text, name).toMatch(/^Error [A-Z_]+: .+\nFix: .+/);
  seen.add(name);
  return { isError: result.isError === true, text, content };
}

/** The first group of `pattern` in `text`, failing the test when it is not there. */
function found(text: string, pattern: RegExp): string {
  const m = text.match(pattern);
  if (!m) throw new Error(`${pattern} not in:\n${text}`);
  return m[1]!;
}

const shellArgs = { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ " }, cols: 60, rows: 12 };

test("tools/list declares no outputSchema in text mode, and every tool in structured mode", async () => {
  const { tools } = await c.client.listTools();
  expect(tools.length).toBeGreaterThan(20);
  for (const tool of tools) expect(tool.outputSchema, tool.name).toBeUndefined();
  await using structured = await connect({ env: { TUI_TESTER_OUTPUT: "structured" } });
  const listed = (await structured.client.listTools()).tools;
  expect(listed.map((t) => t.name)).toEqual(tools.map((t) => t.name));
  for (const tool of listed) expect(tool.outputSchema?.type, tool.name).toBe("object");
});

describe("every tool in text mode: content only, and the facts are in the text", () => {
  test("success and error results of all tools", async () => {
    await c.client.listTools();
    const started = await call(c, "start_session", shellArgs);
    const id = found(started.text, /^Started (\S+) \(pid \d+\)/);
    await call(c, "wait_for_text", { sessionId: id, pattern: "$" });

    // who is waiting, after an input
    const keys = await call(c, "send_keys", { sessionId: id, keys: ["e", "c", "h", "o", "space", "h", "i", "Enter"] });
    expect(keys.text).toMatch(/Settled in \d+ ms: bash is waiting for input\./);
    expect(keys.text).toContain("Changed rows:");
    expect(keys.text).toContain("1+ hi");
    // the inline wait's regex groups
    const text = await call(c, "send_text", {
      sessionId: id,
      text: "echo v=42\r",
      waitFor: { pattern: "v=(\\d+)\\n", regex: true },
    });
    expect(text.text).toContain('waitFor match: ["v=42\\n","42"]');
    // screenDetail auto: the model has the screen from the reply before, so only the rows that changed
    expect(text.text).toContain("3+ v=42");
    expect(text.text).toMatch(/Cursor \d+,2\./);
    expect(text.text).not.toContain("Screen (");
    // a waitFor that timed out without failing says so, in the summary and the settle line
    const missedInline = await call(c, "send_text", {
      sessionId: id,
      text: "echo y\r",
      waitFor: { pattern: "NOT-PRINTED", timeoutMs: 200, errorOnTimeout: false },
    });
    expect(missedInline.isError).toBe(false);
    expect(missedInline.text).toContain('"NOT-PRINTED" not seen (timed out after 200 ms)');
    expect(missedInline.text).toMatch(/Waited \d+ ms: the waitFor text did not appear/);
    expect(missedInline.text).not.toContain("Text seen");
    await call(c, "send_raw", { sessionId: id, utf8: "printf '\\e[7mrev\\e[0m\\n'\r", waitFor: { pattern: "rev\n" } });
    const highlighted = await call(c, "get_text", { sessionId: id });
    expect(highlighted.text).toContain('inverse: 0-3 "rev"');
    await call(c, "type_text", { sessionId: id, text: "ab", cps: 500 });
    await call(c, "hold_key", { sessionId: id, key: "Backspace", durationMs: 40, intervalMs: 10 });
    await call(c, "paste", { sessionId: id, text: "echo pasted" });
    await call(c, "send_keys", {
      sessionId: id,
      keys: "Enter",
      waitFor: { pattern: "^pasted", regex: true, regexFlags: "m" },
    });
    const cells = await call(c, "snapshot", { sessionId: id, format: "cells", region: { rows: 2 } });
    expect(cells.text).toContain('Cells: {"region":{"row":0,"col":0,"rows":2');
    const all = await call(c, "snapshot", { sessionId: id, format: "all", includeScrollback: true });
    expect(all.text).toContain("ANSI:");
    expect(all.text).toMatch(/Buffer \(\d+ lines/);
    expect((await call(c, "get_cursor", { sessionId: id })).text).toMatch(/row: \d+, col: \d+, visible: true/);
    const waited = await call(c, "wait_for_text", { sessionId: id, pattern: "v=(\\d+)", regex: true });
    expect(waited.text).toContain('match: ["v=42","42"]');
    const missed = await call(c, "wait_for_text", { sessionId: id, pattern: "NEVER-THERE", timeoutMs: 200 });
    expect(missed.isError).toBe(true);
    expect(missed.text).toStartWith('Error WAIT_TIMEOUT: "NEVER-THERE" did not appear');
    expect(missed.text).toContain("pasted"); // the screen at the timeout
    expect((await call(c, "wait_for_idle", { sessionId: id, idleMs: 20 })).text).toContain("idle: true");
    expect((await call(c, "resize", { sessionId: id, cols: 70, rows: 14 })).text).toContain("Resized 60x12 -> 70x14");

    const monitor = await call(c, "start_monitor", { sessionId: id, intervalMs: 10 });
    const monitorId = found(monitor.text, /monitorId: ([\w-]+)/);
    await call(c, "send_text", { sessionId: id, text: "echo m\r", waitFor: { pattern: "m\n$" } });
    const frames = await call(c, "stop_monitor", { monitorId });
    expect(frames.text).toMatch(/Frame 0 at \+\d+ ms/);
    expect(frames.text).toContain("Final screen:");
    const diff = await call(c, "diff_snapshots", { before: { text: "a\nb" }, after: { text: "a\nc" } });
    expect(diff.text).toContain("1- b\n1+ c");
    expect((await call(c, "get_raw_output", { sessionId: id, maxBytes: 100 })).text).toContain("output: ");

    const cast = join(outputDir, "text.cast");
    expect((await call(c, "start_recording", { sessionId: id, path: cast })).text).toContain(cast);
    expect((await call(c, "mark_recording", { sessionId: id, text: "mid" })).text).toContain(`Marked ${cast}`);
    const stopped = await call(c, "stop_recording", { sessionId: id });
    expect(stopped.text).toContain(cast);
    const gif = join(outputDir, "text.gif");
    expect((await call(c, "export_recording", { path: cast, out: gif })).text).toContain(gif);
    expect(existsSync(gif)).toBe(true);

    // a screenshot: the PNG as an image block, and one line naming its file
    const shot = await call(c, "screenshot", { sessionId: id });
    const png = found(shot.text, /^Screenshot of \S+ \(\d+x\d+ PNG, \d+ bytes\) saved to (\S+\.png)$/);
    expect(existsSync(png)).toBe(true);
    expect(shot.content.filter((p) => p.type === "image").map((p) => p.mimeType)).toEqual(["image/png"]);
    const image = shot.content.find((p) => p.type === "image")!;
    expect(Buffer.from(image.data!, "base64").equals(readFileSync(png))).toBe(true);
    expect(shot.text).not.toContain("exceeds"); // the image does not count against the text limit
    expect((await call(c, "screenshot", { sessionId: id, format: "svg" })).content[1]?.text).toStartWith("<svg");
    expect((await call(c, "web_viewer", { sessionId: id })).text).toMatch(/http:\/\/127\.0\.0\.1:\d+\/\?token=/);

    const script = await call(c, "run_script", {
      sessionId: id,
      steps: [
        { type: "send_text", text: "echo s\r", waitFor: { pattern: "s\n$" } },
        { type: "assert_text", pattern: "NOT-THERE" },
      ],
    });
    expect(script.isError).toBe(true);
    // the first failed step's code and fix come first, as for any error
    expect(script.text).toStartWith('Error ASSERTION_FAILED: "NOT-THERE" is not on the screen.\nFix: ');
    expect(script.text).toContain("\nScript failed: step 1 (assert_text)");
    expect(script.text).toContain("Final screen");
    const sessions = await call(c, "list_sessions");
    expect(sessions.text).toContain(`${id}: running`);
    expect(sessions.text).toMatch(/\d+ bytes out; modes: bracketed paste/); // bash's readline
    expect(sessions.text).not.toContain("recording to"); // stopped above
    const saved = join(outputDir, "text.tui.json");
    expect((await call(c, "save_test", { sessionId: id, path: saved, snapshots: "none" })).text).toContain(saved);
    const mouse = await call(c, "mouse", { sessionId: id, action: "click", row: 0, col: 0 });
    expect(mouse.text).toStartWith("Error MOUSE_NOT_ENABLED: ");
    expect((await call(c, "send_keys", { sessionId: id, keys: "ctrl+nope" })).text).toStartWith("Error INVALID_KEY");
    expect((await call(c, "get_text", { sessionId: "tui-unknown" })).text).toStartWith("Error SESSION_NOT_FOUND");
    expect((await call(c, "get_text", { sessionId: id, bogus: 1 })).text).toStartWith("Error INVALID_ARGUMENT");

    // exit information
    const exited = await call(c, "send_text", { sessionId: id, text: "exit 4\r" });
    expect(exited.text).toContain("the program exited");
    const info = await call(c, "get_exit_info", { sessionId: id });
    expect(info.text).toContain("exit code 4");
    expect(info.text).toContain("Last screen rows:");
    expect(info.text).toMatch(/tail: \d+ raw bytes \(outputTailBytes prints them\)/);
    expect(info.text).not.toContain("structuredContent");
    const tail = await call(c, "get_exit_info", { sessionId: id, outputTailBytes: 64 });
    expect(tail.text).toMatch(/Raw output tail \(64 bytes, as JSON\): ".*exit/);
    expect((await call(c, "stop_session", { sessionId: id })).text).toContain("had already exited: exit code 4");

    const app = await call(c, "start_session", { command: BUN, args: [fixture("mouse-app.ts")] });
    const appId = found(app.text, /^Started (\S+)/);
    await call(c, "wait_for_text", { sessionId: appId, pattern: "READY" });
    // the modes a model needs before it clicks, in the session's line
    expect((await call(c, "list_sessions")).text).toMatch(
      new RegExp(`${appId}: running, .*modes: mouse \\w+ \\(sgr\\)`),
    );
    await call(c, "stop_session", { sessionId: appId, signal: "SIGKILL" });
    const noTests = await call(c, "run_tests", { paths: [join(outputDir, "no-such-tests")] });
    expect(noTests.isError).toBe(true);
    expect(noTests.text).toContain("no-such-tests");
    const { tools } = await c.client.listTools();
    for (const tool of tools) expect(seen.has(tool.name) ? tool.name : `${tool.name} (not called)`).toBe(tool.name);
  });
});

describe("sizes in text mode", () => {
  test("a reply over 16 KiB of text spills to a file the text names; TUI_TESTER_MAX_REPLY_BYTES raises it", async () => {
    const started = await call(c, "start_session", { ...shellArgs, cols: 80, rows: 24 });
    const id = found(started.text, /^Started (\S+)/);
    await call(c, "send_text", {
      sessionId: id,
      text: "seq -f 'line %g of the scrollback' 3000; echo END\r",
      waitFor: { pattern: "^END$", regex: true, regexFlags: "m" },
    });
    const read = await call(c, "get_text", { sessionId: id, includeScrollback: true });
    expect(bytes(read.content.map((p) => p.text ?? "").join(""))).toBeLessThanOrEqual(16 * 1024);
    expect(read.text).toMatch(/\[Reply of \d+ bytes of text exceeds 16384 \(TUI_TESTER_MAX_REPLY_BYTES\)/);
    const file = found(read.text, /Full text: (\S+\.txt);/);
    const whole = readFileSync(file, "utf8");
    expect(whole).toContain("\nline 2999 of the scrollback\nline 3000 of the scrollback\nEND");
    expect(bytes(whole)).toBeGreaterThan(16 * 1024);
    expect(read.content.filter((p) => p.type === "resource_link").map((p) => fileURLToPath(p.uri!))).toContain(file);
    // the head of the text is kept: the summary and the first rows
    expect(read.text).toStartWith("24 non-empty rows");
    await call(c, "stop_session", { sessionId: id, signal: "SIGKILL" });

    await using raised = await connect({
      env: { TUI_TESTER_OUTPUT: "text", TUI_TESTER_OUTPUT_DIR: outputDir, TUI_TESTER_MAX_REPLY_BYTES: "1048576" },
    });
    const again = await call(raised, "start_session", { ...shellArgs, cols: 80, rows: 24 });
    const other = found(again.text, /^Started (\S+)/);
    await call(raised, "send_text", {
      sessionId: other,
      text: "seq -f 'line %g of the scrollback' 3000; echo END\r",
      waitFor: { pattern: "^END$", regex: true, regexFlags: "m" },
    });
    const full = await call(raised, "get_text", { sessionId: other, includeScrollback: true });
    expect(full.text).not.toContain("exceeds");
    expect(full.text).toContain("\nline 2999 of the scrollback\nline 3000 of the scrollback\nEND");
    await call(raised, "stop_session", { sessionId: other, signal: "SIGKILL" });
  });
});

describe("TUI_TESTER_CONTENT=json with text output", () => {
  test("the content is the summary and the full JSON, the only copy; an error also starts with its code and fix", async () => {
    await using json = await connect({ env: { TUI_TESTER_OUTPUT: "text", TUI_TESTER_CONTENT: "json" } });
    const started = await call(json, "start_session", shellArgs);
    const body = JSON.parse(started.text.slice(started.text.indexOf("\n") + 1));
    expect(body.sessionId).toStartWith("tui-");
    const missed = await call(json, "wait_for_text", { sessionId: body.sessionId, pattern: "NEVER", timeoutMs: 100 });
    expect(missed.text).toStartWith("Error WAIT_TIMEOUT: ");
    expect(missed.text).toContain('"timedOut":true');
    await call(json, "stop_session", { sessionId: body.sessionId, signal: "SIGKILL" });
  });
});

test("the real server process defaults to text mode, and TUI_TESTER_TOOLS reaches it", async () => {
  // empty counts as unset: the server's own default
  await using server = await connectStdio({ env: { TUI_TESTER_OUTPUT: "", TUI_TESTER_TOOLS: "core" } });
  const { tools } = await server.client.listTools();
  expect(tools.map((t) => t.name).toSorted()).toEqual([
    "get_text",
    "list_sessions",
    "run_script",
    "send_keys",
    "send_text",
    "snapshot",
    "start_session",
    "stop_session",
    "wait_for_text",
  ]);
  for (const tool of tools) expect(tool.outputSchema).toBeUndefined();
  const listed = await call(server, "list_sessions");
  expect(listed.text).toStartWith("0 session(s), 0 running");
});
