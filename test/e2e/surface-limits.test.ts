/** Bounded replies: nothing over TUI_TESTER_MAX_REPLY_BYTES reaches the client; the full data goes to a file. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { connect, SERVER_ENTRY, type TestClient } from "./client.ts";

const MIB = 1024 * 1024;
const outputDir = mkdtempSync(join(tmpdir(), "surface-limits-"));

/** The call's whole result as the client received it, and its size in bytes. */
async function sized(c: TestClient, name: string, args: Record<string, unknown>) {
  const result = await c.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  return {
    result,
    bytes: Buffer.byteLength(JSON.stringify(result)),
    data: result.structuredContent as Record<string, any>,
  };
}

/** A session whose 300x100 screen is full of distinct text. */
async function fullScreen(c: TestClient, cols: number, rows: number): Promise<string> {
  const script = `for i in $(seq 1 ${rows - 1}); do printf '%0${cols - 10}d|\\033[7mX\\033[0m\\n' $i; done; printf DONE; sleep 600`;
  const { sessionId } = await c.ok("start_session", { command: "bash", args: ["-c", script], cols, rows });
  await c.ok("wait_for_text", { sessionId, pattern: "DONE", timeoutMs: 30_000 });
  return sessionId as string;
}

describe("default cap (1 MiB)", () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await connect({ env: { TUI_TESTER_OUTPUT_DIR: outputDir } });
  });
  afterAll(async () => {
    await c[Symbol.asyncDispose]();
  });

  test("a 300x100 cells snapshot stays under 1 MiB, the client survives, the full cells are in the reply or the file", async () => {
    const id = await fullScreen(c, 300, 100);
    const { result, bytes, data } = await sized(c, "snapshot", { sessionId: id, format: "cells" });
    expect(bytes).toBeLessThanOrEqual(MIB);
    const full = data.spilled ? JSON.parse(readFileSync(data.spilled.jsonPath, "utf8")) : data;
    expect(full.cells.rows.length).toBe(100);
    // spilled or not, the reply is consistent: links to both files exactly when it was spilled
    const links = (result.content as { type: string; uri?: string }[]).filter((p) => p.type === "resource_link");
    expect(links.length).toBe(data.spilled ? 2 : 0);
    for (const link of links) expect(existsSync(fileURLToPath(link.uri!))).toBe(true);
    expect((await c.ok("list_sessions")).count).toBeGreaterThan(0);
    await c.ok("stop_session", { sessionId: id, signal: "SIGKILL" });
  });
});

describe("a small cap shows the spill mechanism on any payload", () => {
  let c: TestClient;
  beforeAll(async () => {
    c = await connect({ env: { TUI_TESTER_OUTPUT_DIR: outputDir, TUI_TESTER_MAX_REPLY_BYTES: String(64 * 1024) } });
  });
  afterAll(async () => {
    await c[Symbol.asyncDispose]();
  });

  test("a cells snapshot over the cap: summary inline, resource links, complete data in the private files", async () => {
    // cells are compact runs, so it takes a wide screen to pass 64 KiB
    const id = await fullScreen(c, 300, 100);
    const { result, bytes, data } = await sized(c, "snapshot", { sessionId: id, format: "cells" });
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(data.spilled.fields.length).toBeGreaterThan(0);
    expect(data.cols).toBe(300);
    const text = (result.content as { type: string; text?: string }[])[0]!.text!;
    expect(text).toStartWith("300x100 screen");
    expect(text).toContain("TUI_TESTER_MAX_REPLY_BYTES");
    const full = JSON.parse(readFileSync(data.spilled.jsonPath, "utf8"));
    expect(full.cells.rows.length).toBe(100);
    expect(full.text).toContain("DONE");
    expect(readFileSync(data.spilled.textPath, "utf8")).toContain("DONE");
    expect(statSync(data.spilled.jsonPath).mode & 0o077).toBe(0);
    await c.ok("stop_session", { sessionId: id, signal: "SIGKILL" });
  });

  test("a long busy monitor: the reply stays under the cap and the file holds every frame", async () => {
    const { sessionId } = await c.ok("start_session", {
      command: "bash",
      args: ["-c", "i=0; while true; do i=$((i+1)); printf '%0150d\\n' $i; done"],
      cols: 160,
      rows: 40,
    });
    const { monitorId } = await c.ok("start_monitor", { sessionId, intervalMs: 10 });
    // let the monitor record for a while: a wait that cannot match, bounded by its timeout
    expect((await c.call("wait_for_text", { sessionId, pattern: "NEVER-PRINTED", timeoutMs: 1500 })).data.matched).toBe(
      false,
    );
    const { bytes, data } = await sized(c, "stop_monitor", { monitorId });
    expect(bytes).toBeLessThanOrEqual(64 * 1024);
    expect(data.spilled.fields).toContain("frames");
    const full = JSON.parse(readFileSync(data.spilled.jsonPath, "utf8"));
    expect(full.frames.length).toBe(full.frameCount);
    expect(full.frameCount).toBe(data.frameCount);
    expect((await c.ok("list_sessions")).running).toBeGreaterThan(0);
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
  });

  test("raw output and scrollback over the cap are spilled too", async () => {
    const { sessionId } = await c.ok("start_session", {
      command: "bash",
      args: ["-c", "seq 1 30000; echo END; sleep 600"],
    });
    await c.ok("wait_for_text", { sessionId, pattern: "END", timeoutMs: 30_000 });
    const raw = await sized(c, "get_raw_output", { sessionId, maxBytes: 200_000 });
    expect(raw.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(JSON.parse(readFileSync(raw.data.spilled.jsonPath, "utf8")).output).toContain("29999");
    const text = await sized(c, "get_text", { sessionId, includeScrollback: true });
    expect(text.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(readFileSync(text.data.spilled.textPath, "utf8")).toContain("\n25000\n");
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
  });
});

afterAll(() => rmSync(outputDir, { recursive: true, force: true }));

test("an output directory that cannot be made stops the server at start-up, exit 2, saying why", () => {
  const result = Bun.spawnSync([process.execPath, SERVER_ENTRY], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, TUI_TESTER_OUTPUT_DIR: "/proc/no-such-dir/out", TUI_TESTER_LOG: "silent" },
  });
  expect({ code: result.exitCode, stdout: result.stdout.toString() }).toEqual({ code: 2, stdout: "" });
  expect(result.stderr.toString()).toContain("cannot create TUI_TESTER_OUTPUT_DIR");
});

test("an output directory that became unusable after start-up still gives a bounded reply that says why", async () => {
  const dir = mkdtempSync(join(tmpdir(), "surface-limits-gone-"));
  try {
    const env = { TUI_TESTER_OUTPUT_DIR: dir, TUI_TESTER_MAX_REPLY_BYTES: String(64 * 1024) };
    await using c = await connect({ env });
    const script = "seq 1 30000; echo END; sleep 600";
    const { sessionId } = await c.ok("start_session", { command: "bash", args: ["-c", script] });
    await c.ok("wait_for_text", { sessionId, pattern: "END", timeoutMs: 30_000 });
    // The directory made at start-up is replaced by a plain file: the spill cannot be written.
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, "not a directory");
    const raw = await sized(c, "get_raw_output", { sessionId, maxBytes: 200_000 });
    expect(raw.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(raw.result.isError).toBeFalsy();
    expect(raw.data.spilled.error).toEqual(expect.any(String));
    expect((raw.result.content as { text?: string }[])[0]!.text).toContain("could not be saved");
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
