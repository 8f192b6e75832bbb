/** Every tool through the MCP protocol, on the happy path and a failure path. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { BUN, fixture } from "../helpers.ts";
import { replayFrames } from "../../src/monitor/monitor.ts";
import { connect, PLAIN_BASH, type TestClient } from "./client.ts";

let c: TestClient;
beforeAll(async () => {
  c = await connect();
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
});

const shell = () => c.ok("start_session", PLAIN_BASH);
const echoKeys = async () => {
  const started = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")] });
  await c.ok("wait_for_text", { sessionId: started.sessionId, pattern: "READY" });
  return started.sessionId as string;
};

describe("session lifecycle", () => {
  test("start_session returns an id and info; list_sessions shows it; stop_session ends it", async () => {
    const started = await shell();
    expect(started.sessionId).toMatch(/^tui-/);
    expect(started.info).toMatchObject({ state: "running", cols: 80, rows: 24, term: "xterm-256color" });
    const listed = await c.ok("list_sessions");
    expect(listed.sessions.map((s: { sessionId: string }) => s.sessionId)).toContain(started.sessionId);
    expect(listed.sessions.map((s: { id: string }) => s.id)).toContain(started.sessionId);
    // interactive bash ignores SIGTERM once initialised (its prompt shows it is), not before
    await c.ok("wait_for_text", { sessionId: started.sessionId, pattern: "$", errorOnTimeout: true });
    const stopped = await c.ok("stop_session", { sessionId: started.sessionId });
    // interactive bash ignores SIGTERM; the hang-up that comes with it ends bash without escalation
    expect(stopped.escalated).toBe(false);
    expect(stopped.exit.signal).toBe("SIGHUP");
    const info = await c.ok("get_exit_info", { sessionId: started.sessionId });
    expect(info).toMatchObject({ exited: true, state: "exited", signal: "SIGHUP", exitCode: null });
  });

  test("a missing command is an error at start time", async () => {
    const result = await c.call("start_session", { command: "no-such-program-xyz" });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("SPAWN_FAILED");
    expect(result.text).toContain("not found on PATH");
  });

  test("unknown session ids are errors that list the known ids", async () => {
    const live = await shell();
    const result = await c.call("send_text", { sessionId: "tui-nope", text: "x" });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("SESSION_NOT_FOUND");
    expect(result.data.error.hint).toContain(live.sessionId);
    await c.ok("stop_session", { sessionId: live.sessionId, signal: "SIGKILL" });
  });

  test("input to an exited session is an error carrying its exit info", async () => {
    const started = await c.ok("start_session", { command: "bash", args: ["-c", "exit 7"] });
    // idle is not exited: wait on the exit itself
    let info = await c.ok("get_exit_info", { sessionId: started.sessionId });
    for (let i = 0; i < 200 && !info.exited; i++)
      info =
        (await c.ok("wait_for_idle", { sessionId: started.sessionId, idleMs: 20 }),
        await c.ok("get_exit_info", { sessionId: started.sessionId }));
    expect(info.exitCode).toBe(7);
    const result = await c.call("send_keys", { sessionId: started.sessionId, keys: "Enter" });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("SESSION_EXITED");
    expect(result.data.details.exit.exitCode).toBe(7);
  });
});

describe("input tools", () => {
  test("send_keys sends the xterm bytes and returns before/after/diff", async () => {
    const id = await echoKeys();
    const result = await c.ok("send_keys", {
      sessionId: id,
      keys: ["ctrl+shift+up", "F5"],
      waitFor: { pattern: "1b5b31357e" },
    });
    expect(result.bytesSent).toBe(6 + 5);
    expect(result.screen.before.text).not.toContain("1b5b313b3641");
    expect(result.screen.diff.identical).toBe(false);
    expect(result.waitFor.matched).toBe(true);
    expect(result.screen.after.text).toContain("1b5b313b3641");
  });

  test("send_keys with a bad key name sends nothing and suggests a name", async () => {
    const id = await echoKeys();
    const result = await c.call("send_keys", { sessionId: id, keys: ["a", "ctrl+entr"] });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("INVALID_KEY");
    expect(result.text.toLowerCase()).toContain("enter");
    const raw = await c.ok("get_raw_output", { sessionId: id });
    expect(raw.output).not.toContain("KEY 61");
  });

  test("send_text, send_raw and type_text deliver their bytes", async () => {
    const id = await echoKeys();
    const text = await c.ok("send_text", { sessionId: id, text: "hi", waitFor: { pattern: "KEY 6869" } });
    expect(text.waitFor.matched).toBe(true);
    const raw = await c.ok("send_raw", { sessionId: id, hex: "1b5b41", waitFor: { pattern: "KEY 1b5b41" } });
    expect(raw.bytesSent).toBe(3);
    const b64 = await c.ok("send_raw", {
      sessionId: id,
      base64: "Gw==",
      waitFor: { pattern: "KEY 1b\r", matchScreen: false },
    });
    expect(b64.waitFor.matched).toBe(true);
    const typed = await c.ok("type_text", { sessionId: id, text: "xyz", cps: 200, waitFor: { pattern: "KEY 7a" } });
    expect(typed.chars).toBe(3);
    expect(typed.screen.after.text).toContain("KEY 78");
  });

  test("send_raw rejects two encodings and bad hex", async () => {
    const id = await echoKeys();
    expect((await c.call("send_raw", { sessionId: id, hex: "1b", utf8: "x" })).data.error.code).toBe(
      "INVALID_ARGUMENT",
    );
    const bad = await c.call("send_raw", { sessionId: id, hex: "zz" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("hex");
  });

  test("hold_key repeats the key", async () => {
    const id = await echoKeys();
    const held = await c.ok("hold_key", { sessionId: id, key: "down", durationMs: 200, intervalMs: 40 });
    expect(held.events).toBeGreaterThanOrEqual(4);
    const raw = await c.ok("get_raw_output", { sessionId: id });
    expect((raw.output.match(/KEY (1b5b42)+/g) ?? []).length).toBeGreaterThanOrEqual(1);
  });

  test("waitFor with errorOnTimeout fails with the screen attached", async () => {
    const id = await echoKeys();
    const result = await c.call("send_text", {
      sessionId: id,
      text: "a",
      waitFor: { pattern: "NEVER", timeoutMs: 100, errorOnTimeout: true },
    });
    expect(result.isError).toBe(true);
    expect(result.data.error.code).toBe("WAIT_TIMEOUT");
    expect(result.data.details.screen.after.text).toContain("READY");
  });

  test("screenDetail diff returns changed rows and cursor only", async () => {
    const id = await echoKeys();
    const result = await c.ok("send_text", {
      sessionId: id,
      text: "z",
      screenDetail: "diff",
      waitFor: { pattern: "KEY 7a" },
    });
    expect(result.screen.before).toBeUndefined();
    expect(result.screen.cursor).toBeDefined();
    expect(result.screen.diff.changedLines.some((l: { after: string }) => l.after.includes("KEY 7a"))).toBe(true);
    expect(result.screen.after).toBeUndefined();
  });

  test("screenDetail diff gives the screen instead when the whole screen changed (the cheaper of the two)", async () => {
    const id = (await shell()).sessionId;
    await c.ok("send_text", {
      sessionId: id,
      text: "for i in $(seq 1 30); do echo line-$i-padded-to-be-long; done\r",
      waitFor: { pattern: "line-30-" },
    });
    // every row scrolls: listing each changed row's two sides would cost about twice the screen
    const result = await c.call("send_text", {
      sessionId: id,
      text: "for i in $(seq 31 60); do echo row-$i-padded-to-be-long; done\r",
      screenDetail: "diff",
      waitFor: { pattern: "row-60-" },
    });
    expect(result.data.screen.fullScreenInstead).toBe(true);
    expect(result.data.screen.after.text).toContain("row-60-");
    expect(result.text).toMatch(/Changed rows: [0-9,-]+ \(see screen\)\./);
    expect(result.text).not.toContain("- line-");
  });
});

describe("screen tools", () => {
  test("snapshot in every format, get_text, get_cursor, get_raw_output, resize", async () => {
    const started = await shell();
    const id = started.sessionId;
    await c.ok("send_text", {
      sessionId: id,
      text: "printf '\\033[1;31mRED\\033[0m\\n'\r",
      waitFor: { pattern: "^RED", regex: true, regexFlags: "m" },
    });
    const all = await c.ok("snapshot", { sessionId: id, format: "all" });
    expect(all.ansi).toContain("RED");
    const redRun = all.cells.rows
      .flat()
      .find((run: { text: string; attrs?: string[] }) => run.text === "RED" && run.attrs?.includes("bold"));
    expect(redRun).toMatchObject({ attrs: ["bold"], fg: "p1" });
    const text = await c.ok("get_text", { sessionId: id, includeScrollback: true });
    expect(text.scrollback.isAltScreen).toBe(false);
    const cursor = await c.ok("get_cursor", { sessionId: id });
    expect(cursor.row).toBeGreaterThan(0);
    const raw = await c.ok("get_raw_output", { sessionId: id, encoding: "hex" });
    expect(raw.output).toContain(Buffer.from("RED").toString("hex"));
    const resized = await c.ok("resize", { sessionId: id, cols: 60, rows: 20 });
    expect(resized.screen.after.cols).toBe(60);
    expect(resized.screen.diff.resized).toBe(true);
    const bad = await c.call("resize", { sessionId: id, cols: 0, rows: 20 });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("cols");
    await c.ok("stop_session", { sessionId: id, signal: "SIGKILL" });
  });

  test("diff_snapshots compares two snapshots and rejects empty ones", async () => {
    const diff = await c.ok("diff_snapshots", { before: { text: "a\nb" }, after: { text: "a\nc\nd" } });
    expect(diff.changedLines).toEqual([{ row: 1, before: "b", after: "c" }]);
    expect(diff.addedRows).toEqual([{ row: 2, text: "d" }]);
    expect((await c.call("diff_snapshots", { before: {}, after: { text: "x" } })).isError).toBe(true);
  });
});

describe("waits and monitors", () => {
  test("wait_for_text (regex with groups), invalid regex, timeouts", async () => {
    const started = await shell();
    const id = started.sessionId;
    await c.ok("send_text", { sessionId: id, text: "echo version=1.2.3\r" });
    const found = await c.ok("wait_for_text", { sessionId: id, pattern: "version=([\\d.]+)", regex: true });
    expect(found.match).toEqual(["version=1.2.3", "1.2.3"]);
    const invalid = await c.call("wait_for_text", { sessionId: id, pattern: "(", regex: true });
    expect(invalid.data.error.code).toBe("INVALID_REGEX");
    // A timeout is an error result (the original's contract) that keeps matched: false and the screen.
    const missed = await c.call("wait_for_text", { sessionId: id, pattern: "nope", timeoutMs: 50 });
    expect(missed.isError).toBe(true);
    expect(missed.data).toMatchObject({ matched: false, timedOut: true, match: null, error: { code: "WAIT_TIMEOUT" } });
    expect(missed.data.screen.text).toContain("version=1.2.3");
    expect(missed.text).toContain("Error WAIT_TIMEOUT");
    expect(missed.text).toContain("Screen (80x24, cursor");
    const probe = await c.ok("wait_for_text", { sessionId: id, pattern: "nope", timeoutMs: 50, errorOnTimeout: false });
    expect(probe).toMatchObject({ matched: false, timedOut: true });
    const idle = await c.ok("wait_for_idle", { sessionId: id, idleMs: 50, timeoutMs: 2000 });
    expect(idle.idle).toBe(true);
    await c.ok("stop_session", { sessionId: id, signal: "SIGKILL" });
  });

  test("start_monitor / stop_monitor record frames; unknown monitor is an error", async () => {
    const started = await shell();
    const id = started.sessionId;
    const mon = await c.ok("start_monitor", { sessionId: id, intervalMs: 10 });
    await c.ok("send_text", {
      sessionId: id,
      text: "for i in 1 2 3; do echo tick$i; sleep 0.05; done\r",
      waitFor: { pattern: "tick3" },
    });
    const report = await c.ok("stop_monitor", { monitorId: mon.monitorId });
    expect(report.changedFrameCount).toBeGreaterThanOrEqual(3);
    // frames after the first carry row diffs; replayed, the last one shows the end of the loop
    expect(replayFrames(report.frames).at(-1)).toContain("tick3");
    expect(report.finalText).toContain("tick3");
    expect(report.truncated).toBe(false);
    expect((await c.call("stop_monitor", { monitorId: mon.monitorId })).data.error.code).toBe("MONITOR_NOT_FOUND");
    await c.ok("stop_session", { sessionId: id, signal: "SIGKILL" });
  });
});

describe("run_script", () => {
  test("runs every kind of step and returns the reference shape", async () => {
    const id = await echoKeys();
    const result = await c.ok("run_script", {
      sessionId: id,
      defaults: { timeoutMs: 3000 },
      monitor: { intervalMs: 10 },
      includeRawOutput: true,
      steps: [
        { type: "send_text", label: "type", text: "ab", waitFor: { pattern: "KEY 6162" } },
        { type: "send_keys", keys: "Enter", waitFor: { pattern: "KEY 0d" } },
        { type: "send_raw", hex: "41" },
        { type: "wait_for_text", pattern: "KEY 41" },
        { type: "type_text", text: "c", cps: 100 },
        { type: "hold_key", key: "x", durationMs: 50, intervalMs: 20 },
        { type: "wait_for_idle", idleMs: 30 },
        { type: "sleep", durationMs: 10 },
        { type: "assert_text", pattern: "KEY 6162" },
        { type: "assert_text", pattern: "NOT THERE", negate: true },
        { type: "snapshot", format: "cells" },
        { type: "get_text", includeScrollback: true },
        { type: "resize", cols: 70, rows: 20 },
      ],
    });
    expect(result).toMatchObject({ ok: true, stepsPlanned: 13, stepsRun: 13, stoppedAtStep: null });
    expect(result.results[0]).toMatchObject({ index: 0, type: "send_text", label: "type", ok: true });
    expect(result.results[0].result.waitFor.matched).toBe(true);
    expect(result.results[8].result).toMatchObject({
      passed: true,
      matched: true,
      negated: false,
      matchedAgainst: "screen",
    });
    expect(result.monitor.frameCount).toBeGreaterThan(1);
    expect(result.rawOutput.output).toContain("KEY 41");
    expect(result.finalSnapshot.cols).toBe(70);
  });

  test("a failing step stops the script; continueOnError goes on; wait_for_text steps fail on timeout", async () => {
    const id = await echoKeys();
    // ok: false is an error result that still carries the whole step report
    const failed = await c.call("run_script", {
      sessionId: id,
      steps: [
        { type: "assert_text", pattern: "ABSENT" },
        { type: "send_text", text: "x" },
      ],
    });
    expect(failed.isError).toBe(true);
    expect(failed.text).toContain("ABSENT");
    const stopped = failed.data;
    expect(stopped).toMatchObject({ ok: false, stepsRun: 1, stoppedAtStep: 0 });
    expect(stopped.results[0].error.code).toBe("ASSERTION_FAILED");
    expect(stopped.results[0].result.excerpt).toContain("READY");
    const continued = (
      await c.call("run_script", {
        sessionId: id,
        steps: [
          { type: "wait_for_text", pattern: "ABSENT", timeoutMs: 30, continueOnError: true },
          { type: "send_text", text: "y" },
        ],
      })
    ).data;
    expect(continued.stepsRun).toBe(2);
    expect(continued.results[0].error.code).toBe("WAIT_TIMEOUT");
  });

  test("all steps are validated before the first runs", async () => {
    const id = await echoKeys();
    const result = await c.call("run_script", {
      sessionId: id,
      steps: [
        { type: "send_text", text: "SHOULD-NOT-SEND" },
        { type: "send_keys", keys: 5 },
      ],
    });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("steps[1] (send_keys): keys");
    const badKey = await c.call("run_script", {
      sessionId: id,
      steps: [
        { type: "send_text", text: "q" },
        { type: "send_keys", keys: "ctrl+nope" },
      ],
    });
    expect(badKey.isError).toBe(true);
    const raw = await c.ok("get_raw_output", { sessionId: id });
    expect(raw.output).not.toContain("KEY 71");
    expect(raw.output).not.toContain(Buffer.from("SHOULD").toString("hex"));
  });
});
