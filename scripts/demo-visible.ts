#!/usr/bin/env bun
/**
 * Live demo: starts the tui-tester MCP server over stdio like an MCP client would, opens the
 * bundled demo TUI with visible: true (a terminal window mirrors it when a display exists),
 * drives it with keys, a monitor and a script, then quits.
 *
 *   bun scripts/demo-visible.ts            (TUI_TESTER_DEMO_STEP_MS=600 slows it down for humans;
 *                                           TUI_TESTER_DEMO_VISIBLE=0 opens no window, for tests and CI)
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const pause = Number(process.env.TUI_TESTER_DEMO_STEP_MS ?? 300);
const env: Record<string, string> = {};
for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(root, "src", "main.ts")],
  env: { ...env, TUI_TESTER_LOG: "silent", TUI_TESTER_OUTPUT: "structured" },
});
const client = new Client({ name: "tui-tester-demo", version: "1.0.0" });
await client.connect(transport);

async function call(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text: string }[])[0]?.text ?? "";
  console.log(`-> ${name}: ${text.split("\n")[0]}`);
  if (result.isError) throw new Error(text);
  return result.structuredContent as Record<string, any>;
}

try {
  const { sessionId, info } = await call("start_session", {
    command: process.execPath,
    args: [join(root, "scripts", "demo-tui.ts")],
    cols: 80,
    rows: 24,
    name: "demo",
    visible: process.env.TUI_TESTER_DEMO_VISIBLE !== "0",
  });
  console.log(
    info.viewer.open ? `   viewer window: ${info.viewer.terminal}` : `   no viewer window: ${info.viewer.reason}`,
  );
  await call("wait_for_text", { sessionId, pattern: "READY" });
  const { monitorId } = await call("start_monitor", { sessionId, intervalMs: 50 });
  for (const key of ["down", "down", "space", "down", "space"]) {
    const moved = await call("send_keys", { sessionId, keys: key, screenDetail: "diff" });
    for (const line of moved.screen.diff.changedLines) console.log(`   row ${line.row}: ${line.after.trim()}`);
    await Bun.sleep(pause);
  }
  const script = await call("run_script", {
    sessionId,
    steps: [{ type: "send_keys", keys: "up" }, { type: "assert_text", pattern: "[x]" }, { type: "snapshot" }],
  });
  console.log(`   script ok=${script.ok} in ${script.durationMs} ms`);
  const frames = await call("stop_monitor", { monitorId });
  console.log(`   recorded ${frames.frameCount} frames`);
  console.log(`\n${script.finalSnapshot.text}\n`);
  await Bun.sleep(pause);
  await call("send_keys", { sessionId, keys: "q", waitAfterMs: 300 });
  const exit = await call("get_exit_info", { sessionId });
  console.log(`   demo exited: code ${exit.exitCode}`);
} finally {
  await client.close();
}
