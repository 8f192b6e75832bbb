/**
 * What the agent reads: the text rendering, the JSON switch, and in structured mode every tool's output
 * against its outputSchema.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { tools } from "../../src/catalog.ts";

const outputOf = (name: string) => tools.find((tool) => tool.name === name)!.output!;
import { BUN, fixture } from "../helpers.ts";
import { connect, type TestClient } from "./client.ts";

let c: TestClient;
const seen = new Map<string, number>();
/** Recordings and screenshots of this file. */
const outputDir = mkdtempSync(join(tmpdir(), "surface-render-"));

beforeAll(async () => {
  // Structured mode: every result carries structuredContent, and every tool an outputSchema (the default
  // text mode, content only, is output-text.test.ts).
  c = await connect({ env: { TUI_TESTER_OUTPUT_DIR: outputDir, TUI_TESTER_OUTPUT: "structured" } });
  // Listing the tools makes the SDK client validate every structuredContent against its outputSchema.
  await c.client.listTools();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  rmSync(outputDir, { recursive: true, force: true });
});

/** Call through the SDK (which validates against the declared outputSchema) and check with valibot too. */
async function checked(name: string, args: Record<string, unknown> = {}) {
  const result = await c.call(name, args);
  const parsed = v.safeParse(outputOf(name), result.data);
  if (!parsed.success)
    throw new Error(
      `${name} output does not match its schema: ${JSON.stringify(parsed.issues.map((i) => [v.getDotPath(i), i.message]))}`,
    );
  seen.set(name, (seen.get(name) ?? 0) + 1);
  return result;
}

/** A bash session at its prompt; `shown: false` leaves out the wait, so no reply has shown its screen yet. */
const shell = async ({ shown = true } = {}) => {
  const started = await checked("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile"],
    env: { PS1: "$ " },
    cols: 60,
    rows: 12,
  });
  if (shown) await checked("wait_for_text", { sessionId: started.data.sessionId, pattern: "$" });
  return started.data.sessionId as string;
};

describe("every tool's real output matches its outputSchema", () => {
  test("success and error results of all tools", async () => {
    const id = await shell();
    await checked("send_keys", {
      sessionId: id,
      keys: ["e", "c", "h", "o", "space", "h", "i", "Enter"],
      waitFor: { pattern: "hi\n$" },
    });
    await checked("send_text", { sessionId: id, text: "echo two\r", waitFor: { pattern: "two\n$" } });
    await checked("send_raw", { sessionId: id, utf8: "echo raw\r", waitFor: { pattern: "raw\n$" } });
    await checked("type_text", { sessionId: id, text: "ab", cps: 500 });
    await checked("hold_key", { sessionId: id, key: "Backspace", durationMs: 40, intervalMs: 10 });
    await checked("paste", { sessionId: id, text: "echo pasted" });
    await checked("send_keys", {
      sessionId: id,
      keys: "Enter",
      waitFor: { pattern: "^pasted", regex: true, regexFlags: "m" },
    });
    await checked("snapshot", { sessionId: id, format: "all", includeScrollback: true });
    await checked("get_text", { sessionId: id });
    await checked("get_cursor", { sessionId: id });
    await checked("wait_for_idle", { sessionId: id, idleMs: 20 });
    await checked("resize", { sessionId: id, cols: 70, rows: 14 });
    const monitor = await checked("start_monitor", { sessionId: id, intervalMs: 10 });
    await checked("send_text", { sessionId: id, text: "echo m\r", waitFor: { pattern: "m\n$" } });
    await checked("stop_monitor", { monitorId: monitor.data.monitorId });
    const a = await checked("get_text", { sessionId: id });
    await checked("diff_snapshots", { before: { text: "x" }, after: a.data });
    await checked("get_raw_output", { sessionId: id, maxBytes: 100 });
    const recording = await checked("start_recording", { sessionId: id, path: join(outputDir, "render.cast") });
    expect(recording.data.path).toBe(join(outputDir, "render.cast"));
    expect((await checked("mark_recording", { sessionId: id, text: "mid" })).data.atMs).toEqual(expect.any(Number));
    expect((await checked("stop_recording", { sessionId: id })).data.events).toBeGreaterThan(0);
    expect(
      (await checked("export_recording", { path: join(outputDir, "render.cast"), out: join(outputDir, "render.gif") }))
        .data.frames,
    ).toBeGreaterThan(0);
    expect((await checked("screenshot", { sessionId: id, format: "svg" })).data.width).toBeGreaterThan(0);
    expect((await checked("web_viewer", { sessionId: id })).data.url).toStartWith("http://127.0.0.1:");
    await checked("run_script", {
      sessionId: id,
      steps: [
        { type: "send_text", text: "echo s\r", waitFor: { pattern: "s\n$" } },
        { type: "assert_text", pattern: "s" },
      ],
    });
    await checked("run_script", { sessionId: id, steps: [{ type: "assert_text", pattern: "NOT-THERE" }] });
    await checked("list_sessions");
    const live = join(outputDir, "render-live.tui.json"); // render.tui.json is saved below, after the exit
    expect((await checked("save_test", { sessionId: id, path: live, snapshots: "none" })).data.path).toBe(live);
    await checked("get_exit_info", { sessionId: id });
    const mouse = await checked("mouse", { sessionId: id, action: "click", row: 0, col: 0 });
    expect(mouse.isError).toBe(true);
    await checked("send_keys", { sessionId: id, keys: "ctrl+nope" });
    await checked("get_text", { sessionId: "tui-unknown" });
    await checked("stop_session", { sessionId: id });
    await checked("get_exit_info", { sessionId: id });
    expect(
      (await checked("save_test", { sessionId: id, path: join(outputDir, "render.tui.json"), snapshots: "none" })).data
        .steps,
    ).toBeGreaterThan(0);
    expect((await checked("save_test", { sessionId: id, path: join(outputDir, "render.tui.json") })).isError).toBe(
      true,
    );
    // the saved test, run: passed or failed, its report has the declared shape
    const ran = await checked("run_tests", { paths: [join(outputDir, "render.tui.json")] });
    expect(ran.data.passed + ran.data.failed).toBe(1);
    const app = await checked("start_session", { command: BUN, args: [fixture("mouse-app.ts")] });
    await checked("stop_session", { sessionId: app.data.sessionId, signal: "SIGKILL" });
    expect((await checked("run_tests", { paths: [join(outputDir, "no-such-tests")] })).isError).toBe(true);
    const { tools } = await c.client.listTools();
    for (const tool of tools) expect(seen.has(tool.name) ? tool.name : `${tool.name} (not called)`).toBe(tool.name);
  });
});

describe("the text rendering", () => {
  test("an input result: summary, changed rows with row numbers, the screen without trailing blank rows, no JSON", async () => {
    const id = await shell();
    const result = await c.call("send_text", {
      sessionId: id,
      text: "echo hello\r",
      waitFor: { pattern: "hello\n$" },
      screenDetail: "full",
    });
    const lines = result.text.split("\n");
    expect(lines[0]).toBe('Sent 11 bytes of text; "hello\\n$" matched');
    expect(result.text).toContain("Changed rows:\n0- $\n0+ $ echo hello\n1+ hello\n2+ $");
    expect(result.text).toContain("Screen (60x12, cursor 2,2):\n$ echo hello\nhello\n$");
    expect(result.text.endsWith("$")).toBe(true);
    expect(result.text).not.toContain("{");
    // the before-screen is not repeated: the diff says it
    expect(result.text.match(/\$ echo hello/g)?.length).toBe(2);
    // structuredContent keeps the full contract
    expect(result.data.screen.before.text.trim()).toBe("$");
    expect(result.data.screen.after.lines.length).toBe(12);
  });

  test("screenDetail auto: the screen until the model has one, then the rows changed since it", async () => {
    const id = await shell({ shown: false });
    // nothing shown yet: the whole after-screen
    const first = await c.call("send_text", { sessionId: id, text: "echo one\r", waitFor: { pattern: "one\n$" } });
    expect(first.text).toContain("Screen (60x12, cursor 2,2):\n$ echo one\none\n$");
    // the model has that screen: only what changed, and the rest is not printed again
    const second = await c.call("send_text", { sessionId: id, text: "echo two\r", waitFor: { pattern: "two\n$" } });
    expect(second.text).toContain("Changed rows:\n2- $\n2+ $ echo two\n3+ two\n4+ $\nCursor 4,2.");
    expect(second.text).not.toContain("echo one");
    // a read shows the screen whole; the input after it is told against that screen
    await checked("get_text", { sessionId: id });
    const third = await c.call("send_text", { sessionId: id, text: "clear\r", waitFor: { pattern: "$" } });
    expect(third.text).toContain("Screen (60x12");
    // structured data keeps both screens whatever the text printed
    expect(second.data.screen.before.text).toContain("echo one");
    expect(second.data.screen.after.text).toContain("two");
  });

  test("screenDetail diff renders the changed rows and the cursor only", async () => {
    const id = await shell();
    const result = await c.call("send_text", {
      sessionId: id,
      text: "echo x\r",
      waitFor: { pattern: "x\n$" },
      screenDetail: "diff",
    });
    expect(result.text).toContain("1+ x");
    expect(result.text).toContain("Cursor 2,2.");
    expect(result.text).not.toContain("Screen (");
  });

  test("errors carry the code, the message and the fix; a failed wait shows the screen", async () => {
    const id = await shell();
    const result = await c.call("wait_for_text", {
      sessionId: id,
      pattern: "NEVER",
      timeoutMs: 30,
      errorOnTimeout: true,
    });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Error WAIT_TIMEOUT: "NEVER" did not appear/);
    expect(result.text).toContain("\nFix: ");
    expect(result.text).toContain("Screen (60x12, cursor 0,2):\n$");
    // an input's missed waitFor: the fix points below, where the text shows the screen (no details.screen in text mode)
    const inline = await c.call("send_text", {
      sessionId: id,
      text: "x",
      waitFor: { pattern: "NEVER", timeoutMs: 30, errorOnTimeout: true },
    });
    expect(inline.text).toMatch(/^Error WAIT_TIMEOUT: .*, but "NEVER" did not appear within 30 ms on the screen\./);
    expect(inline.text).toContain("\nFix: The screen at the timeout is below;");
    expect(inline.text).not.toContain("details.screen");
    expect(inline.text).toMatch(/Screen \(60x12, cursor 0,3\):\n\$ x/);
  });

  test("exit status, session lists and stop results are readable text", async () => {
    const started = await c.ok("start_session", { command: "bash", args: ["-c", "echo bye; exit 4"] });
    let info = await c.call("get_exit_info", { sessionId: started.sessionId });
    for (let i = 0; i < 200 && !info.data.exited; i++)
      info =
        (await c.ok("wait_for_idle", { sessionId: started.sessionId, idleMs: 20 }),
        await c.call("get_exit_info", { sessionId: started.sessionId }));
    expect(info.text).toContain("exit code 4");
    expect(info.text).toContain("Last screen rows:\nbye");
    // The raw tail (escape codes and all) stays in structuredContent; the text names its size only.
    expect(info.text).toContain("5 raw bytes in structuredContent.tail");
    const listed = await c.call("list_sessions");
    expect(listed.text).toContain(`${started.sessionId}: exited, bash -c echo bye; exit 4`);
  });

  test("TUI_TESTER_CONTENT=json puts the summary and the JSON in content", async () => {
    await using json = await connect({ env: { TUI_TESTER_CONTENT: "json" } });
    const started = await json.ok("start_session", {
      command: "bash",
      args: ["--norc", "--noprofile"],
      env: { PS1: "$ " },
    });
    const result = await json.call("get_text", { sessionId: started.sessionId });
    const [summary, body] = result.text.split("\n", 2) as [string, string];
    expect(summary).toContain("non-empty rows");
    expect(JSON.parse(result.text.slice(summary.length + 1))).toEqual(result.data);
    expect(body.startsWith("{")).toBe(true);
    await json.ok("stop_session", { sessionId: started.sessionId, signal: "SIGKILL" });
  });
});
