/**
 * htop written the natural way, waitFor then an instant check: F10 leaves Setup and htop redraws its
 * function bar before the panel above it, so a wait that matched "F2Setup" on the bar must return
 * only once the panel is drawn too (frame finishing), or the check sees the old Setup panel.
 */
import { expect, test } from "bun:test";
import { describeApp, useServer } from "./helpers.ts";

describeApp("htop", () => {
  const h = useServer();
  test("F2 then F10 with waitFor, then an instant check: the Setup panel is gone (10 rounds)", async () => {
    const { sessionId } = await h.start({ command: "htop", cols: 120, rows: 40, env: { TERM: "xterm-256color" } });
    await h.c.ok("wait_for_text", { sessionId, pattern: "Load average", timeoutMs: 15_000 });
    const round = [
      { type: "send_keys", keys: ["F2"], waitFor: { pattern: "F10Done", errorOnTimeout: true } },
      { type: "assert_text", pattern: "Display options" },
      { type: "send_keys", keys: ["F10"], waitFor: { pattern: "F2Setup", errorOnTimeout: true } },
      { type: "assert_text", pattern: "Display options", negate: true },
    ];
    const r = await h.c.call("run_script", { sessionId, steps: Array.from({ length: 10 }, () => round).flat() });
    expect(r.text).toStartWith("Script ok");
    expect(r.data.ok).toBe(true);
  });
});
