/** asciicast recording over MCP: start_session record, start/stop/mark_recording, TUI_TESTER_RECORD_DIR, errors. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN, fixture } from "../helpers.ts";
import { readCast } from "./cast.ts";

const dir = mkdtempSync(join(tmpdir(), "tui-tester-rec-"));
let c: TestClient;
beforeAll(async () => {
  c = await connect({ cwd: dir, env: { TUI_TESTER_OUTPUT_DIR: dir } });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  rmSync(dir, { recursive: true, force: true });
});

const echoKeys = async (extra: Record<string, unknown> = {}) => {
  const started = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")], ...extra });
  await c.ok("wait_for_text", { sessionId: started.sessionId, pattern: "READY" });
  return started;
};

describe("recording", () => {
  test("start_session record: path records output, resizes and script markers from the first byte until exit", async () => {
    const started = await echoKeys({ record: "session.cast", name: "rec-demo" });
    const path = join(dir, "session.cast");
    expect(started.info.recording.path).toBe(path);
    await c.ok("send_text", { sessionId: started.sessionId, text: "x", waitFor: { pattern: "KEY 78" } });
    // written as it happens: a reader sees a valid prefix before the recording is closed
    const partial = readCast(path);
    expect(partial.events.some(([, code, data]) => code === "o" && data.includes("READY"))).toBe(true);
    await c.ok("run_script", {
      sessionId: started.sessionId,
      steps: [
        { type: "resize", cols: 100, rows: 30 },
        { type: "mark_recording", text: "after resize" },
        { type: "send_text", text: "q" },
      ],
    });
    // a pattern that never matches ends when the process exits (q quits the fixture)
    expect(
      (await c.call("wait_for_text", { sessionId: started.sessionId, pattern: "\u0000never", timeoutMs: 5000 })).data
        .exited,
    ).toBe(true);
    const stopped = await c.ok("stop_recording", { sessionId: started.sessionId });
    expect(stopped.path).toBe(path);
    const { header, events } = readCast(path);
    expect(header).toMatchObject({
      version: 2,
      width: 80,
      height: 24,
      title: "rec-demo",
      env: { TERM: "xterm-256color" },
    });
    expect(typeof header.timestamp).toBe("number");
    expect(events.length).toBe(stopped.events);
    expect(statSync(path).size).toBe(stopped.bytes);
    expect(events.find(([, code]) => code === "r")?.[2]).toBe("100x30");
    expect(events.find(([, code]) => code === "m")?.[2]).toBe("after resize");
    expect(
      events
        .filter(([, code]) => code === "o")
        .map(([, , d]) => d)
        .join(""),
    ).toContain("KEY 78");
    // times never go backwards
    expect(events.every(([t], i) => i === 0 || t >= events[i - 1]![0])).toBe(true);
    expect(events.some(([, code]) => code === "i")).toBe(false);
  });

  test("start_recording mid-session begins with a repaint, records input when asked; stop_session closes it", async () => {
    const started = await echoKeys();
    const rec = await c.ok("start_recording", { sessionId: started.sessionId, includeInput: true });
    expect(rec.path.endsWith(".cast")).toBe(true);
    const listed = await c.ok("list_sessions");
    expect(listed.sessions.find((s: any) => s.sessionId === started.sessionId).recording.path).toBe(rec.path);
    const again = await c.call("start_recording", { sessionId: started.sessionId });
    expect(again.isError).toBe(true);
    expect(again.text).toContain("already recording");
    await c.ok("send_text", { sessionId: started.sessionId, text: "ab", waitFor: { pattern: "KEY 6162" } });
    await c.ok("stop_session", { sessionId: started.sessionId });
    const { events } = readCast(rec.path);
    expect(events[0]![1]).toBe("o");
    expect(events[0]![2]).toContain("READY");
    expect(events.find(([, code]) => code === "i")?.[2]).toBe("ab");
    // closed by stop_session; stop_recording still reports it once
    const stopped = await c.ok("stop_recording", { sessionId: started.sessionId });
    expect(stopped.events).toBe(events.length);
    const twice = await c.call("stop_recording", { sessionId: started.sessionId });
    expect(twice.isError).toBe(true);
  });

  test("a directory that does not exist is a clear error, and start_session then starts nothing", async () => {
    const before = (await c.ok("list_sessions")).count;
    const bad = await c.call("start_session", {
      command: BUN,
      args: [fixture("echo-keys.ts")],
      record: "no/such/dir/x.cast",
    });
    expect(bad.isError).toBe(true);
    expect(bad.data.error.code).toBe("INVALID_ARGUMENT");
    expect(bad.text).toContain(`"${join(dir, "no/such/dir")}" does not exist`);
    expect((await c.ok("list_sessions")).count).toBe(before);
    const started = await echoKeys();
    const result = await c.call("start_recording", {
      sessionId: started.sessionId,
      path: "/nonexistent-dir-xyz/a.cast",
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("does not exist");
    const mark = await c.call("mark_recording", { sessionId: started.sessionId, text: "x" });
    expect(mark.isError).toBe(true);
    expect(mark.text).toContain("start_recording");
    await c.ok("stop_session", { sessionId: started.sessionId, signal: "SIGKILL" });
  });
});

describe("TUI_TESTER_RECORD_DIR", () => {
  test("records every session there; server exit closes the files", async () => {
    const recordDir = mkdtempSync(join(tmpdir(), "tui-tester-recdir-"));
    try {
      const server = await connect({ env: { TUI_TESTER_RECORD_DIR: recordDir } });
      const started = await server.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] });
      expect(started.info.recording.path.startsWith(recordDir)).toBe(true);
      const off = await server.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")], record: false });
      expect(off.info.recording).toBeUndefined();
      await server.ok("wait_for_text", { sessionId: started.sessionId, pattern: "READY" });
      await server[Symbol.asyncDispose]();
      const files = readdirSync(recordDir);
      expect(files).toHaveLength(1);
      const { events } = readCast(join(recordDir, files[0]!));
      expect(events.map(([, , d]) => d).join("")).toContain("READY");
    } finally {
      rmSync(recordDir, { recursive: true, force: true });
    }
  });

  test("a TUI_TESTER_RECORD_DIR removed after start-up fails start_session with the variable's name", async () => {
    // A missing directory at start-up stops the server (settings validation); this is the later case.
    const recordDir = join(dir, "vanishing");
    mkdirSync(recordDir);
    const server = await connect({ env: { TUI_TESTER_RECORD_DIR: recordDir } });
    try {
      rmSync(recordDir, { recursive: true, force: true });
      const result = await server.call("start_session", { command: BUN, args: [fixture("echo-keys.ts")] });
      expect(result.isError).toBe(true);
      expect(result.text).toContain("TUI_TESTER_RECORD_DIR");
      expect(existsSync(recordDir)).toBe(false);
    } finally {
      await server[Symbol.asyncDispose]();
    }
  });
});
