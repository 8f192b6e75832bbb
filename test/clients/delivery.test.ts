/**
 * Real-client tier: what reaches the model through Claude Code, Codex CLI, opencode and Copilot CLI.
 * Each client runs headless against a fake model API (test/clients/fake-*.ts) that calls tui-tester's
 * tools in a fixed order and records the request the client sends next, i.e. exactly what the model
 * read. A client that is not installed in TUI_TESTER_CLIENTS_DIR is skipped with the install command.
 */
import { describe, expect, test } from "bun:test";
import { CLIENTS, type ClientName, clientBinary, clientVersion, INSTALL, startClient } from "./clients.ts";
import { withoutClientNotes } from "./script.ts";

const SHELL = { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ " } };
/** A result carrying tui-tester's full JSON (the structured channel) starts with or contains this. */
const FULL_JSON = /\{"sessionId":"tui-/;

/** Per client: does it hand the model a screenshot's image? (Copilot CLI does not, in any mode.) */
const SEES_IMAGES: Record<ClientName, boolean> = { claude: true, codex: true, opencode: true, copilot: false };

for (const name of Object.keys(CLIENTS) as ClientName[]) {
  const { label } = CLIENTS[name];
  const installed = clientBinary(name) !== null;
  if (!installed) console.warn(`skipping ${label} tests: not installed; install the clients with: ${INSTALL}`);

  describe.skipIf(!installed)(installed ? `${label} ${clientVersion(name)}` : label, () => {
    test(
      "the model reads the compact view once, a screenshot as an image, and an error's code, message and fix",
      async () => {
        await using run = await startClient(name, { timeoutMs: 170_000 });

        const started = await run.call("start_session", SHELL);
        const sessionId = started.text.match(/tui-[a-z0-9]+-\d+/)?.[0];
        expect(sessionId, started.text).toBeDefined();
        expect(started.text).toContain(`Started ${sessionId}`);
        expect(started.text).not.toMatch(FULL_JSON);

        const sent = await run.call("send_text", { sessionId, text: "echo MARKER_$((6*7))\r" });
        const view = withoutClientNotes(sent.text);
        expect(view).toContain("MARKER_42");
        expect(view.match(/Settled in \d+ ms/g), view).toHaveLength(1);
        expect(view.match(/MARKER_42/g)?.length ?? 0, view).toBeLessThanOrEqual(2); // changed row + screen
        expect(view).not.toMatch(FULL_JSON);

        const shot = await run.call("screenshot", { sessionId });
        expect(shot.text).toMatch(/\.png\b/);
        if (SEES_IMAGES[name]) expect(shot.images, shot.text).toBe(1);

        const missing = await run.call("get_text", { sessionId: "nope" });
        expect(missing.text).toContain("SESSION_NOT_FOUND");
        expect(missing.text).toContain('no session with id "nope"');
        expect(missing.text).toContain("Fix:");
        expect(missing.text).not.toMatch(/"error":\{"code"/);
        if (name === "claude" || name === "opencode") expect(missing.isError).toBe(true); // their API's is_error

        const stopped = await run.call("stop_session", { sessionId });
        expect(stopped.text).toContain(sessionId!);
        expect(await run.finish()).toBe(0);
      },
      { timeout: 200_000 },
    );

    // Newer Claude Code versions defer MCP tools behind ToolSearch by default; this one can be asked to.
    if (name === "claude")
      test(
        "with deferred tools (ToolSearch), the model loads a tool and reads its compact view",
        async () => {
          await using run = await startClient(name, { timeoutMs: 170_000, clientEnv: { ENABLE_TOOL_SEARCH: "true" } });
          const started = await run.call("start_session", SHELL);
          const sessionId = started.text.match(/tui-[a-z0-9]+-\d+/)?.[0];
          const sent = await run.call("send_text", { sessionId, text: "echo MARKER_$((6*7))\r" });
          expect(withoutClientNotes(sent.text)).toMatch(/Settled in \d+ ms[\s\S]*MARKER_42/);
          await run.call("stop_session", { sessionId });
          expect(await run.finish()).toBe(0);
          const offered = run.api.requests.map((r) => (r.body?.tools ?? []).map((t: { name: string }) => t.name));
          const first = offered.find((names) => names.includes("ToolSearch"));
          expect(first).toBeDefined();
          expect(first).not.toContain("mcp__tui-tester__send_text");
        },
        { timeout: 200_000 },
      );
  });
}
