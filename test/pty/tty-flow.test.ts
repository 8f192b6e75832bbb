/** Holding a child back at its tty (src/pty/tty-flow.ts), and one reader thread for every session. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readlinkSync } from "node:fs";
import { slavePathOf, ttyFlow } from "../../src/pty/tty-flow.ts";
import { until } from "../helpers.ts";
import { seen, startOptions, testRegistry } from "../registry-helpers.ts";

const flow = ttyFlow();
if (flow === undefined)
  console.warn(
    `tty-flow tests skipped: no tty flow control on ${process.platform} (each session gets a blocking reader there)`,
  );

describe.skipIf(flow === undefined)("tty flow control", () => {
  test("TCOOFF on the child's slave stops its output without a byte of input; TCOON restarts it", async () => {
    let bytes = 0;
    const proc = Bun.spawn(["yes", "flood"], {
      terminal: { cols: 80, rows: 24, data: (_t, data) => void (bytes += data.length) },
    });
    try {
      await until(() => bytes > 64 * 1024, "the flood to start");
      const slave = slavePathOf(proc.pid);
      expect(slave).toMatch(/^\/dev\/pts\/\d+$/);
      expect(flow!.pause(slave!)).toBe(true);
      // What was already in the tty's buffers still arrives (tens of KiB); then nothing, while yes is
      // blocked in write(2). Unstopped, it writes megabytes in the same window.
      const pausedAt = bytes;
      await Bun.sleep(300); // a deliberate window: output must not continue on its own
      expect(bytes - pausedAt).toBeLessThan(256 * 1024);
      const stoppedAt = bytes;
      expect(flow!.resume(slave!)).toBe(true);
      await until(() => bytes > stoppedAt + 64 * 1024, "the flood to resume");
    } finally {
      proc.kill("SIGKILL");
      await proc.exited;
    }
  });

  test("the slave is found through the controlling terminal when stdio points elsewhere (tcsh keeps it on fds 15-19)", async () => {
    const proc = Bun.spawn(["sh", "-c", "exec 7<&0 0</dev/null 1>/dev/null 2>/dev/null; exec sleep 30"], {
      terminal: { cols: 80, rows: 24, data: () => undefined },
    });
    try {
      await until(() => readlinkSync(`/proc/${proc.pid}/fd/0`) === "/dev/null", "stdio to move off the terminal");
      const slave = slavePathOf(proc.pid);
      expect(slave).toMatch(/^\/dev\/pts\/\d+$/);
      expect(readlinkSync(`/proc/${proc.pid}/fd/7`)).toBe(slave!);
    } finally {
      proc.kill("SIGKILL");
      await proc.exited;
    }
  });

  test("a tty that is gone is reported, not thrown", () => {
    expect(flow!.pause("/dev/pts/999999")).toBe(false);
    expect(flow!.resume("/dev/pts/999999")).toBe(false);
  });

  test("eight sessions, two of them flooding, share one reader thread", async () => {
    await using registry = testRegistry();
    const threads = () => readdirSync("/proc/self/task").length;
    // The first session creates the shared reader (and Bun's spawn machinery); count from there.
    const first = await registry.start(
      startOptions("bash", ["--norc", "--noprofile", "-i"], { env: { PS1: "READY$ " } }),
    );
    await seen(first, { pattern: "READY$", timeoutMs: 10_000, pollIntervalMs: 50, matchScreen: true });
    const before = threads();
    const sessions = [];
    for (let i = 0; i < 5; i++)
      sessions.push(
        await registry.start(startOptions("bash", ["--norc", "--noprofile", "-i"], { env: { PS1: "READY$ " } })),
      );
    sessions.push(await registry.start(startOptions("yes", ["a"])), await registry.start(startOptions("yes", ["b"])));
    for (const s of sessions.slice(0, 5))
      await seen(s, { pattern: "READY$", timeoutMs: 10_000, pollIntervalMs: 50, matchScreen: true });
    expect(threads() - before).toBeLessThan(3); // a reader per session would add 7
  });
});
