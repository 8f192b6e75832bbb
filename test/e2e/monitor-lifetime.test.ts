/** A monitor ends with its session (issue 22): no frames after the exit, readable afterwards, no slot held. */
import { expect, test } from "bun:test";
import { connect } from "./client.ts";

test("a keepIdenticalFrames monitor records nothing after stop_session, and its frames stay readable", async () => {
  await using c = await connect();
  const { sessionId } = await c.ok("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile"],
    env: { PS1: "P$ " },
  });
  await c.ok("wait_for_text", { sessionId, pattern: "P$" });
  const { monitorId } = await c.ok("start_monitor", { sessionId, intervalMs: 10, keepIdenticalFrames: true });
  await c.ok("send_text", {
    sessionId,
    text: "echo before-exit\r",
    waitFor: { pattern: "^before-exit$", regex: true, regexFlags: "m" },
  });
  await c.ok("stop_session", { sessionId });
  const first = (await c.call("stop_monitor", { monitorId })).data;
  expect(first.endedBySessionExit).toBe(true);
  expect(first.finalText).toContain("before-exit");
  // A 10 ms ticker that outlived the session would add frames while the client waits (a wait that
  // cannot match, bounded by its timeout, on another session).
  const { sessionId: other } = await c.ok("start_session", { command: "sleep", args: ["30"] });
  const { monitorId: second } = await c.ok("start_monitor", {
    sessionId: other,
    intervalMs: 10,
    keepIdenticalFrames: true,
  });
  const { exit } = await c.ok("stop_session", { sessionId: other });
  const { sessionId: clock } = await c.ok("start_session", { command: "sleep", args: ["30"] });
  expect(
    (await c.call("wait_for_text", { sessionId: clock, pattern: "never shown", timeoutMs: 300 })).data.matched,
  ).toBe(false);
  const report = await c.ok("stop_monitor", { monitorId: second });
  expect(report.endedBySessionExit).toBe(true);
  const late = report.frames.filter((f: { takenAt: string }) => Date.parse(f.takenAt) > Date.parse(exit.exitedAt) + 50);
  expect(late).toEqual([]);
});

test("monitors of 17 stopped sessions do not hit LIMIT_REACHED (16 may record at once)", async () => {
  await using c = await connect();
  for (let i = 0; i < 17; i++) {
    const { sessionId } = await c.ok("start_session", { command: "sleep", args: ["30"] });
    const started = await c.call("start_monitor", { sessionId, keepIdenticalFrames: true });
    expect(started.text).not.toContain("LIMIT_REACHED");
    await c.ok("stop_session", { sessionId });
  }
  // The limit still holds for monitors that record.
  const { sessionId } = await c.ok("start_session", { command: "sleep", args: ["30"] });
  for (let i = 0; i < 16; i++) await c.ok("start_monitor", { sessionId });
  expect((await c.call("start_monitor", { sessionId })).data.error.code).toBe("LIMIT_REACHED");
});
