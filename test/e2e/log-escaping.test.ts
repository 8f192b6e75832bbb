/** Log injection (issue 22): what a client passes reaches the server's stderr log escaped, one line per entry. */
import { expect, test } from "bun:test";
import { until } from "../helpers.ts";
import { connectStdio } from "./client.ts";

test("a newline or ESC in a command argument cannot forge a log line or reach stderr raw", async () => {
  await using c = await connectStdio({ env: { TUI_TESTER_LOG: "on" } });
  let stderr = "";
  c.transport.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const forged = "x\n[tui-tester] stopped everything\u001b[2J\u009b31m\u2028done";
  const { sessionId } = await c.ok("start_session", { command: "true", args: [forged] });
  await until(() => stderr.includes(`started ${sessionId}`), "the start to be logged");
  const lines = stderr.split("\n");
  expect(lines.filter((l) => l.startsWith("[tui-tester] stopped everything"))).toEqual([]);
  expect(stderr).not.toMatch(/[\u001b\u009b\u2028]/);
  const started = lines.find((l) => l.includes(`started ${sessionId}`))!;
  expect(started).toContain(String.raw`x\n[tui-tester] stopped everything\x1b[2J\u009b31m\u2028done`);
});
