/**
 * The stdio transport under a hostile or careless client: a request line past the 10 MiB limit is
 * refused and the server keeps serving (issue 22), and 10,000 pipelined requests share one write queue.
 */
import { expect, test } from "bun:test";
import { connectStdio, SERVER_ENTRY } from "../e2e/client.ts";
import { BUN, processAlive, until } from "../helpers.ts";

test("a 12 MB request through the SDK client is refused under its id; the session and the server live on", async () => {
  await using c = await connectStdio();
  const { sessionId, info } = await c.ok("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile", "-i"],
    env: { PS1: "PROMPT$ " },
  });
  const refused = await c.client
    .callTool({ name: "send_text", arguments: { sessionId, text: "a".repeat(12_000_000) } }, undefined, {
      timeout: 60_000,
    })
    .then(
      () => "answered",
      (error: Error & { code?: number }) => `${error.code}: ${error.message}`,
    );
  expect(refused).toContain("-32600");
  expect(refused).toContain("limit is 10485760 bytes");
  expect(processAlive(info.pid)).toBe(true);
  const echoed = await c.ok("send_text", {
    sessionId,
    text: "echo $((6*7))\r",
    waitFor: { pattern: "^42$", regex: true, regexFlags: "m", timeoutMs: 10_000 },
  });
  expect(echoed.waitFor.matched).toBe(true);
}, 120_000);

/** The server over raw stdio, for lines no SDK client would write. */
function rawServer() {
  const proc = Bun.spawn([BUN, SERVER_ENTRY], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, TUI_TESTER_LOG: "", TUI_TESTER_OUTPUT: "structured" },
  });
  const lines: string[] = [];
  let stderr = "";
  void (async () => {
    let pending = "";
    for await (const chunk of proc.stdout) {
      pending += new TextDecoder().decode(chunk);
      const parts = pending.split("\n");
      pending = parts.pop()!;
      lines.push(...parts);
    }
  })();
  void (async () => {
    for await (const chunk of proc.stderr) stderr += new TextDecoder().decode(chunk);
  })();
  const send = (text: string) => {
    proc.stdin.write(text);
    proc.stdin.flush();
  };
  const reply = async (id: number) => {
    await until(() => lines.some((l) => l.includes(`"id":${id}`)), `the reply to request ${id}`, 60_000);
    return JSON.parse(lines.find((l) => l.includes(`"id":${id}`))!);
  };
  send(
    `${JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "0" } } })}\n`,
  );
  send(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
  return { proc, lines, send, reply, stderr: () => stderr };
}

test("an oversized line with its id at the start gets an error under that id; one without an id a log notification", async () => {
  const server = rawServer();
  try {
    await server.reply(0);
    const padding = "x".repeat(11 * 1024 * 1024);
    // Streamed in pieces, as a pipe delivers it; the id leads the line.
    server.send(`{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"list_sessions","arguments":{"pad":"`);
    for (let i = 0; i < padding.length; i += 1 << 20) server.send(padding.slice(i, i + (1 << 20)));
    server.send(`"}}}\n`);
    const refused = await server.reply(41);
    expect(refused.error.code).toBe(-32600);
    expect(refused.error.message).toContain("10485760");
    // No id anywhere: nothing to answer, so a log notification says what happened.
    server.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"reason":"${padding}"}}\n`);
    await until(() => server.lines.some((l) => l.includes("notifications/message")), "the log notification", 60_000);
    expect(server.lines.find((l) => l.includes("notifications/message"))).toContain("limit is 10485760 bytes");
    server.send(
      `${JSON.stringify({ jsonrpc: "2.0", id: 42, method: "tools/call", params: { name: "list_sessions", arguments: {} } })}\n`,
    );
    expect((await server.reply(42)).result.structuredContent.count).toBe(0);
  } finally {
    server.proc.kill();
  }
}, 120_000);

test("10,000 pipelined requests are all answered, with no MaxListenersExceededWarning", async () => {
  const server = rawServer();
  try {
    await server.reply(0);
    const requests: string[] = [];
    for (let id = 1; id <= 10_000; id++) requests.push(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }));
    server.send(`${requests.join("\n")}\n`);
    await until(() => server.lines.length >= 10_001, "10,000 replies", 120_000);
    expect(server.stderr()).not.toContain("MaxListenersExceeded");
  } finally {
    server.proc.kill();
  }
}, 180_000);
