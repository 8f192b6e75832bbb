/**
 * TUI_TESTER_TOOLS (all, core or names) and TUI_TESTER_TOOLS_DENY pick the tools a server lists and
 * answers; run_script keeps every step type whatever is offered. (An unknown name stops the server at
 * start-up: test/build/settings.test.ts.)
 */
import { expect, test } from "bun:test";
import { tools as catalog } from "../../src/catalog.ts";
import { CORE_TOOLS } from "../../src/config.ts";
import { connect, PLAIN_BASH } from "./client.ts";

const ALL = catalog.map((tool) => tool.name);

async function listed(env: Record<string, string>): Promise<string[]> {
  await using c = await connect({ env });
  return (await c.client.listTools()).tools.map((tool) => tool.name);
}

test("all is the default and the whole catalog", async () => {
  expect(await listed({})).toEqual(ALL);
  expect(await listed({ TUI_TESTER_TOOLS: "all" })).toEqual(ALL);
});

test("core lists the nine core tools, in catalog order", async () => {
  expect(CORE_TOOLS.toSorted()).toEqual(
    [
      "start_session",
      "stop_session",
      "list_sessions",
      "send_keys",
      "send_text",
      "get_text",
      "snapshot",
      "wait_for_text",
      "run_script",
    ].toSorted(),
  );
  expect(await listed({ TUI_TESTER_TOOLS: "core" })).toEqual(ALL.filter((name) => CORE_TOOLS.includes(name)));
});

test("an allow list gives exactly those tools; a deny list takes tools away, also from core", async () => {
  expect(await listed({ TUI_TESTER_TOOLS: "send_keys, start_session" })).toEqual(["start_session", "send_keys"]);
  expect(await listed({ TUI_TESTER_TOOLS_DENY: "screenshot,web_viewer" })).toEqual(
    ALL.filter((name) => name !== "screenshot" && name !== "web_viewer"),
  );
  expect(await listed({ TUI_TESTER_TOOLS: "core", TUI_TESTER_TOOLS_DENY: "run_script" })).toEqual(
    ALL.filter((name) => CORE_TOOLS.includes(name) && name !== "run_script"),
  );
});

test("a tool left out is not callable, and says why; run_script still runs every step type", async () => {
  await using c = await connect({ env: { TUI_TESTER_TOOLS: "core" } });
  const started = await c.ok("start_session", PLAIN_BASH);
  await expect(c.client.callTool({ name: "get_cursor", arguments: { sessionId: started.sessionId } })).rejects.toThrow(
    /Unknown tool "get_cursor"\. It is turned off here \(TUI_TESTER_TOOLS, TUI_TESTER_TOOLS_DENY\)/,
  );
  await expect(c.client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(
    /Unknown tool "no_such_tool"\. Tools: start_session/,
  );
  const script = await c.ok("run_script", {
    sessionId: started.sessionId,
    steps: [
      { type: "send_text", text: "echo core\r", waitFor: { pattern: "core\n$" } },
      { type: "hold_key", key: "a", durationMs: 30, intervalMs: 10 },
      { type: "wait_for_idle", idleMs: 20 },
      { type: "resize", cols: 70, rows: 20 },
      { type: "assert_text", pattern: "core" },
    ],
  });
  expect(script.ok).toBe(true);
  expect(script.results.map((s: { type: string; ok: boolean }) => `${s.type} ${s.ok}`)).toEqual([
    "send_text true",
    "hold_key true",
    "wait_for_idle true",
    "resize true",
    "assert_text true",
  ]);
  await c.ok("stop_session", { sessionId: started.sessionId, signal: "SIGKILL" });
});
