/**
 * Real-app tier helpers. Every test here drives a program nobody in this repo wrote, and skips (with
 * a message saying why) when the program is not installed. Most drive it through the library
 * (src/lib: launch() and the bun:test matchers, the engine the MCP tools use); the few that check
 * what the MCP surface adds (get_text's highlights, start-up queries, the viewer) go through the
 * MCP server over stdio. `.ci/run` installs the programs with apt-get so CI runs them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, setDefaultTimeout } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type TestClient } from "../e2e/client.ts";

/** True when `name` is on PATH. */
export function hasApp(name: string): boolean {
  return Bun.which(name) !== null;
}

/**
 * `describe` that runs only when every program in `apps` is on PATH, and otherwise warns once,
 * e.g. "skipping htop tests: htop not installed; .ci/run installs it with apt-get".
 */
export function describeApp(apps: string | string[], fn: () => void, label?: string): void {
  const names = Array.isArray(apps) ? apps : [apps];
  const missing = names.filter((name) => !hasApp(name));
  const title = label ?? names.join(" + ");
  if (missing.length > 0) {
    console.warn(
      `skipping ${title} tests: ${missing.join(", ")} not installed; .ci/run installs ${missing.length > 1 ? "them" : "it"} with apt-get`,
    );
  }
  // test/setup.ts sets this too, but a preload's default only reaches the first test file of a run
  setDefaultTimeout(30_000);
  describe.skipIf(missing.length > 0)(title, fn);
}

/** A fresh temp directory per call, all removed after the file's tests. */
export function useTempDirs(): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), "tui-tester-app-"));
    dirs.push(dir);
    return dir;
  };
}

export interface AppHarness {
  /** The MCP client (connected in beforeAll). */
  readonly c: TestClient;
  /** start_session, remembering the id so afterEach stops it; returns { sessionId, info }. */
  start(args: Record<string, unknown>): Promise<{ sessionId: string; info: Record<string, any> }>;
  /** A fresh temp directory, removed after the file's tests. */
  tempDir(): string;
}

/**
 * Per-file setup inside a describeApp body: one server for the file, every session started through
 * `start` stopped after each test (whatever the outcome), temp dirs removed at the end.
 */
export function useServer(): AppHarness {
  let client: TestClient | undefined;
  const live: string[] = [];
  const dirs: string[] = [];
  beforeAll(async () => {
    client = await connect();
  });
  afterEach(async () => {
    for (const sessionId of live.splice(0))
      await client?.call("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
  });
  afterAll(async () => {
    await client?.[Symbol.asyncDispose]();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get c() {
      if (!client) throw new Error("client not connected yet (use it inside a test)");
      return client;
    },
    async start(args) {
      const started = await this.c.ok("start_session", args);
      live.push(started.sessionId);
      return started as { sessionId: string; info: Record<string, any> };
    },
    tempDir() {
      const dir = mkdtempSync(join(tmpdir(), "tui-tester-app-"));
      dirs.push(dir);
      return dir;
    },
  };
}

/** wait_for_text that fails the test (with the screen in the message) when the pattern never shows. */
export async function waitText(
  c: TestClient,
  sessionId: string,
  pattern: string,
  opts: { regex?: boolean; regexFlags?: string; timeoutMs?: number } = {},
): Promise<Record<string, any>> {
  const result = await c.call("wait_for_text", {
    sessionId,
    pattern,
    regex: opts.regex ?? false,
    regexFlags: opts.regexFlags ?? "",
    timeoutMs: opts.timeoutMs ?? 10_000,
    errorOnTimeout: true,
  });
  if (result.isError)
    throw new Error(
      `waiting for ${JSON.stringify(pattern)}: ${result.text}\n--- screen ---\n${result.data.details?.screen?.text ?? "(none)"}`,
    );
  return result.data;
}

/**
 * An input tool call with an inline waitFor that must match; returns the structured result
 * (screen.before/after/diff is the frame where the pattern first matched).
 */
export async function inputUntil(
  c: TestClient,
  tool: string,
  args: Record<string, unknown>,
  pattern: string,
  opts: { regex?: boolean; regexFlags?: string; timeoutMs?: number; matchScreen?: boolean } = {},
): Promise<Record<string, any>> {
  const result = await c.call(tool, {
    ...args,
    waitFor: {
      pattern,
      regex: opts.regex ?? false,
      regexFlags: opts.regexFlags ?? "",
      timeoutMs: opts.timeoutMs ?? 10_000,
      matchScreen: opts.matchScreen ?? true,
      errorOnTimeout: true,
    },
  });
  if (result.isError)
    throw new Error(
      `${tool} ${JSON.stringify(args)} waiting for ${JSON.stringify(pattern)}: ${result.text}\n--- screen ---\n${result.data.details?.screen?.after?.text ?? "(none)"}`,
    );
  expect(result.data.waitFor.matched).toBe(true);
  return result.data;
}

/** Wait until the session has exited and return its exit info. */
export async function exitInfo(c: TestClient, sessionId: string, timeoutMs = 10_000): Promise<Record<string, any>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const info = await c.ok("get_exit_info", { sessionId, tailBytes: 4000 });
    if (info.exited) return info;
    if (performance.now() > deadline)
      throw new Error(`${sessionId} did not exit within ${timeoutMs} ms; screen:\n${info.screenTail}`);
    // wait_for_text returns early (exited: true) the moment the process ends; the pattern never matches
    await c.ok("wait_for_text", { sessionId, pattern: "\u0000never\u0000", timeoutMs: 500, errorOnTimeout: false });
  }
}

/** list_sessions entry for one session. */
export async function sessionModes(c: TestClient, sessionId: string): Promise<Record<string, any>> {
  const listed = await c.ok("list_sessions");
  const entry = listed.sessions.find((s: { sessionId: string }) => s.sessionId === sessionId);
  if (!entry) throw new Error(`${sessionId} not in list_sessions`);
  return entry.modes;
}
