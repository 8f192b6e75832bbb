/**
 * Waits the ready oracle learns about from outside the waiting thread: a read that times out by the
 * terminal's modes (VMIN 0, VTIME > 0) is a loop's tick; the program behind a relay that gave it a pty
 * of its own (expect, socat, script) is judged with the relay at every input, not only the first; and
 * a read of a loopback TCP socket with bytes on their way (Nagle, a delayed acknowledgement) is busy;
 * an Erlang timer behind a clock, which only a BEAM scheduler's futex shows, is never claimed.
 * Linux only (the oracle reads /proc).
 */
import { describe, expect, test } from "bun:test";
import { observe } from "../../src/session/observe.ts";
import type { Session } from "../../src/session/session.ts";
import { waitForText } from "../../src/session/wait.ts";
import { fixture, lacks } from "../helpers.ts";
import { startOptions, testRegistry } from "../registry-helpers.ts";

const linux = process.platform === "linux";
if (!linux) console.warn("skipping these ready oracle tests: they read /proc, which only Linux has");
const hasPython = !lacks("python3", "these ready oracle tests");
const utf8 = new TextEncoder();

async function started(registry: ReturnType<typeof testRegistry>, script: string): Promise<Session> {
  const session = await registry.start(startOptions("python3", [fixture(script)]));
  const seen = await waitForText(session, {
    pattern: "READY",
    timeoutMs: 10_000,
    pollIntervalMs: 50,
    matchScreen: true,
  });
  expect(seen.matched).toBe(true);
  return session;
}

const press = (session: Session) =>
  observe(session, () => session.write(utf8.encode("x")), { captureScreen: true, screenDetail: "full" }).then(
    (o) => o.screen!,
  );

describe.skipIf(!linux || !hasPython)("waits seen from outside the waiting thread", () => {
  test("a relay's program on its own pty is waited for at every input", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "ready-relay.py");
    for (const n of [1, 2, 3]) {
      const screen = await press(session);
      // Its 300 ms sleep is seen: the settle ends with the answer, at rest.
      expect(screen.after!.text).toContain(`DONE ${n}`);
      expect(screen.settledBy).toBe("idle");
    }
  });

  test("a read timed out by VTIME is a tick: the settle says it cannot tell, naming the tick", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "ready-vtime.py");
    for (const n of [1, 2]) {
      const screen = await press(session);
      // The countdown runs on the read's timeouts, which no wait shows: never claimed done.
      expect(screen.settledBy).toBe("unsure");
      expect(screen.tickMs).toBe(200);
      expect(screen.quiet).toBe(false);
      await waitForText(session, { pattern: `DONE ${n}`, timeoutMs: 10_000, pollIntervalMs: 20, matchScreen: true });
    }
  });

  test("a round trip over loopback TCP held by Nagle and a delayed acknowledgement is waited for", async () => {
    await using registry = testRegistry();
    const session = await started(registry, "ready-tcp.py");
    for (const n of [1, 2, 3]) {
      const screen = await press(session);
      // Between its reads no thread runs: the bytes in the kernel's queues are the work.
      expect(screen.after!.text).toContain(`DONE ${n}`);
      expect(screen.settledBy).toBe("idle");
    }
  });
});

describe.skipIf(!linux || lacks("escript", "the Erlang scheduler test"))("a runtime's scheduler", () => {
  test("an Erlang timer behind a receive ... after clock is never claimed done: its scheduler's wait is named", async () => {
    await using registry = testRegistry();
    const session = await registry.start(startOptions("escript", [fixture("ready-erlang.escript")]));
    await waitForText(session, { pattern: "READY", timeoutMs: 15_000, pollIntervalMs: 20, matchScreen: true });
    for (const n of [1, 2]) {
      const screen = await press(session);
      // DONE comes 500 ms after the key; the settle ends before it, and says it cannot tell.
      if (!screen.after!.text.includes(`DONE ${n}`)) {
        expect({ settledBy: screen.settledBy, quiet: screen.quiet }).toEqual({ settledBy: "unsure", quiet: false });
        expect(screen.unseen ?? `tick ${screen.tickMs}`).toMatch(/Erlang scheduler waits for a timer|tick/);
      }
      await waitForText(session, { pattern: `DONE ${n}`, timeoutMs: 10_000, pollIntervalMs: 20, matchScreen: true });
    }
  });
});
