/** The engine's limits as an MCP client meets them, through the in-process server (the transport's own: transport-limits). */
import { expect, test } from "bun:test";
import { connect } from "../e2e/client.ts";
import { processAlive } from "../helpers.ts";

// A request larger than the transport takes: test/stress/transport-limits.test.ts.

test("stop_session of an interactive bash hangs it up: no escalation to SIGKILL", async () => {
  await using c = await connect();
  const { sessionId, info } = await c.ok("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile", "-i"],
    env: { PS1: "PROMPT$ " },
  });
  await c.ok("wait_for_text", { sessionId, pattern: "PROMPT$", timeoutMs: 10_000 });
  const stopped = await c.ok("stop_session", { sessionId });
  expect(stopped).toMatchObject({ signalsSent: ["SIGTERM", "SIGHUP"], escalated: false });
  expect(processAlive(info.pid)).toBe(false);
});

test("a flooding session stops on request while another session and the server keep answering", async () => {
  await using c = await connect();
  const flood = await c.ok("start_session", { command: "yes", args: ["flood"] });
  const shell = await c.ok("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile", "-i"],
    env: { PS1: "PROMPT$ " },
  });
  await c.ok("wait_for_text", { sessionId: shell.sessionId, pattern: "PROMPT$", timeoutMs: 10_000 });
  const echoed = await c.ok("send_text", {
    sessionId: shell.sessionId,
    text: "echo $((6*7))\r",
    waitFor: { pattern: "^42$", regex: true, regexFlags: "m", timeoutMs: 10_000 },
  });
  expect(JSON.stringify(echoed)).toContain("42");
  expect((await c.call("get_text", { sessionId: flood.sessionId })).text).toContain("flood");
  const stopped = await c.ok("stop_session", { sessionId: flood.sessionId });
  expect(stopped.exit?.signal ?? stopped.signal).toBeTruthy();
  expect(processAlive(flood.info.pid)).toBe(false);
  const list = await c.ok("list_sessions", {});
  expect(JSON.stringify(list)).toContain(shell.sessionId);
}, 60_000);

test.skipIf(process.platform !== "linux")(
  "input to a program that never reads ends in INPUT_BLOCKED, and the server stays healthy",
  async () => {
    await using c = await connect();
    const { sessionId } = await c.ok("start_session", { command: "sleep", args: ["300"] });
    const chunk = "a".repeat(400 * 1024);
    let result = await c.call("send_text", { sessionId, text: chunk });
    for (let i = 0; i < 4 && !result.isError; i++) result = await c.call("send_text", { sessionId, text: chunk });
    expect(result.isError).toBe(true);
    expect(result.text).toContain("INPUT_BLOCKED");
    expect(result.text).toContain("not reading its input");
    expect((await c.ok("stop_session", { sessionId })).alreadyExited).toBe(false);
  },
  60_000,
);

test("an exited session's final screen, exit info and raw tail stay readable", async () => {
  await using c = await connect();
  const { sessionId } = await c.ok("start_session", {
    command: "bash",
    args: ["-c", "seq 1 50000; echo FINAL-LINE; exit 4"],
  });
  let info = await c.ok("get_exit_info", { sessionId });
  for (const deadline = performance.now() + 20_000; !info.exited && performance.now() < deadline; )
    info = await c.ok("get_exit_info", { sessionId });
  expect(info).toMatchObject({ exited: true, exitCode: 4 });
  expect(info.screenTail).toContain("FINAL-LINE");
  expect((await c.ok("get_text", { sessionId })).text).toContain("FINAL-LINE");
  expect(JSON.stringify(await c.ok("snapshot", { sessionId }))).toContain("FINAL-LINE");
  const raw = await c.ok("get_raw_output", { sessionId });
  expect(raw.output).toContain("FINAL-LINE");
}, 60_000);
