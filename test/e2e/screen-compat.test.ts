/** The original's argument names and result shapes on the screen tools, and the compact cells form. */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, PLAIN_BASH, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

const shell = async () => {
  const { sessionId } = await c.ok("start_session", PLAIN_BASH);
  await c.ok("wait_for_text", { sessionId, pattern: "$ " });
  return sessionId as string;
};

test("get_raw_output takes tailBytes, the newest bytes", async () => {
  const sessionId = await shell();
  await c.ok("send_text", { sessionId, text: "echo 0123456789XYZ\r", waitFor: { pattern: "0123456789XYZ\n$ " } });
  const raw = await c.ok("get_raw_output", { sessionId, tailBytes: 6 });
  expect(raw.returnedBytes).toBe(6);
  const all = await c.ok("get_raw_output", { sessionId });
  expect(all.output.endsWith(raw.output)).toBe(true);
  expect(all.returnedBytes).toBeGreaterThan(6);
  expect(raw.truncated).toBe(true);
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});

test("wait_for_idle takes pollIntervalMs and reports idleFor", async () => {
  const sessionId = await shell();
  // mode quiet: idleMs of no output (the default mode, idle, ends when bash waits for input)
  const idle = await c.ok("wait_for_idle", {
    sessionId,
    mode: "quiet",
    idleMs: 100,
    pollIntervalMs: 25,
    timeoutMs: 5000,
  });
  expect(idle.idle).toBe(true);
  expect(idle.idleFor).toBeGreaterThanOrEqual(100);
  expect(idle.screen.text).toContain("$");
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});

test("diff_snapshots returns the diff itself, not nested", async () => {
  const diff = await c.ok("diff_snapshots", { before: { lines: ["a", "b", "gone"] }, after: { lines: ["a", "B"] } });
  expect(diff).toMatchObject({
    identical: false,
    changedLines: [{ row: 1, before: "b", after: "B" }],
    addedRows: [],
    removedRows: [{ row: 2, text: "gone" }],
  });
  expect(diff.diff).toBeUndefined();
});

test("cells come as runs per row, for a region, with the highlights in the same reply", async () => {
  const sessionId = await shell();
  await c.ok("send_text", {
    sessionId,
    text: "printf '\\033[7mSEL\\033[0m plain \\033[1;32mok\\033[0m\\n'\r",
    waitFor: { pattern: "^SEL plain ok$", regex: true, regexFlags: "m" },
  });
  const text = await c.ok("get_text", { sessionId });
  const row = text.text.split("\n").findIndex((l: string) => l === "SEL plain ok");
  expect(text.highlights).toEqual([
    { row, startCol: 0, endCol: 3, text: "SEL", kind: "inverse" },
    { row, startCol: 10, endCol: 12, text: "ok", kind: "bold" },
  ]);
  const snap = await c.ok("snapshot", { sessionId, format: "cells", region: { row, rows: 1 } });
  expect(snap.cells).toEqual({
    region: { row, col: 0, rows: 1, cols: 80 },
    truncated: false,
    rows: [
      [
        { col: 0, text: "SEL", attrs: ["inverse"] },
        { col: 3, text: " plain " },
        { col: 10, text: "ok", fg: "p2", attrs: ["bold"] },
      ],
    ],
  });
  await c.ok("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
});
