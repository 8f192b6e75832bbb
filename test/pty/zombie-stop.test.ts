/**
 * stop_session must not wait for zombies (issue 22): a session's grandchild that died after its
 * parent stays a zombie until PID 1 reaps it, and counted as alive it held a stop for 1-2 s.
 */
import { expect, test } from "bun:test";
import { descendants, processRunning } from "../../src/pty/index.ts";
import { processExists } from "../../src/pty/signal.ts";
import { DEFAULT_CONFIG } from "../../src/config.ts";
import { SessionRegistry } from "../../src/session/registry.ts";
import { until } from "../helpers.ts";

test.skipIf(process.platform !== "linux")("a zombie does not count as running", async () => {
  // The short sleep's parent execs into a long sleep that never reaps it: a zombie for 30 s.
  const proc = Bun.spawn(["sh", "-c", "sleep 0.01 & exec sleep 30"]);
  try {
    let zombie: number | undefined;
    await until(
      () => (zombie = descendants(proc.pid)[0]) !== undefined && !processRunning(zombie),
      "the short sleep to end",
    );
    expect(processExists(zombie!)).toBe(true); // still in the process table...
    expect(processRunning(zombie!)).toBe(false); // ...but not running
    expect(processRunning(proc.pid)).toBe(true);
  } finally {
    proc.kill("SIGKILL");
  }
});

test.skipIf(process.platform !== "linux")(
  "stop_session of sh -c 'sleep 100' leaves no process and needs no escalation",
  async () => {
    // Not a timing assertion: the figure is a bench row (bench/run.ts, "stop"). Here: the outcome.
    const registry = new SessionRegistry({ ...DEFAULT_CONFIG, killGraceMs: 30_000 });
    const session = await registry.start({
      command: "sh",
      args: ["-c", "sleep 100; echo never"],
      cols: 80,
      rows: 24,
      term: "xterm",
    });
    let sleeper: number | undefined;
    await until(() => (sleeper = descendants(session.pid)[0]) !== undefined, "the sleep to start");
    const stopped = await registry.stop(session.id);
    expect(stopped.escalated).toBe(false);
    expect(processRunning(sleeper!)).toBe(false);
    await registry.shutdown();
  },
);
