/**
 * A server killed with SIGKILL runs no shutdown code; its watchdog ends what it started, including
 * children that left the session's process group with setsid, and a double-forked one (issue 22).
 */
import { expect, test } from "bun:test";
import { processAlive, until } from "../helpers.ts";
import { connectStdio } from "./client.ts";

test.skipIf(process.platform !== "linux")(
  "SIGKILL to the server leaves no setsid grandchild running",
  async () => {
    const c = await connectStdio();
    const strays: number[] = [];
    try {
      const script =
        'setsid sleep 1001 & echo "P1=$!"; (setsid sleep 1002 & echo "P2=$!"); echo READY; exec sleep 1003';
      const { sessionId, info } = await c.ok("start_session", { command: "sh", args: ["-c", script] });
      const seen = await c.ok("wait_for_text", {
        sessionId,
        pattern: "P1=(\\d+)\\s+P2=(\\d+)\\s+READY",
        regex: true,
        timeoutMs: 10_000,
      });
      expect(seen.matched).toBe(true);
      strays.push(Number(seen.match[1]), Number(seen.match[2]), info.pid);
      expect(strays.every(processAlive)).toBe(true);
      process.kill(c.transport.pid!, "SIGKILL");
      await until(() => strays.every((pid) => !processAlive(pid)), "every process the server started to end", 15_000);
    } finally {
      for (const pid of strays) if (processAlive(pid)) process.kill(pid, "SIGKILL");
      await c.client.close().catch(() => undefined);
    }
  },
  30_000,
);

test.skipIf(process.platform !== "linux")(
  "a session cannot unset the server's mark through start_session env",
  async () => {
    await using c = await connectStdio();
    const { sessionId } = await c.ok("start_session", {
      command: "sh",
      args: ["-c", 'echo "MARK=[$TUI_TESTER_OWNER]"; sleep 30'],
      env: { TUI_TESTER_OWNER: "" },
    });
    const seen = await c.ok("wait_for_text", {
      sessionId,
      pattern: "MARK=\\[(\\d+-[0-9a-f-]+)\\]",
      regex: true,
      timeoutMs: 10_000,
    });
    expect(seen.matched).toBe(true);
  },
);
