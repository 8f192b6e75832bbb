/**
 * Signal timers no wait shows, through a real PTY: a program answering from a SIGALRM handler is not
 * claimed done before its answer on its first input (the first settle watches it at rest, and a wake
 * no wait explains makes its settles say they cannot tell), while a program whose handler is never
 * raised settles idle, and an interactive bash (a job-control shell: its SIGALRM is TMOUT's) is not
 * taken for one.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { observe } from "../../src/session/observe.ts";
import { signalTimerSource } from "../../src/session/ready/signal-timers.ts";
import type { Session } from "../../src/session/session.ts";
import { waitForText } from "../../src/session/wait.ts";
import { startOptions, testRegistry } from "../registry-helpers.ts";

const linux = process.platform === "linux";
const python = Bun.which("python3");
const fixture = join(import.meta.dir, "..", "fixtures", "alarm-answer.py");
if (!linux || python === null) console.warn("skipping the signal-timer settles: they need Linux /proc and python3");

async function press(session: Session, text: string) {
  const observed = await observe(session, () => session.write(new TextEncoder().encode(text)), {
    captureScreen: true,
    screenDetail: "full",
  });
  return observed.screen!;
}

test.skipIf(!linux || python === null)(
  "an answer from a SIGALRM handler is never claimed before it shows",
  async () => {
    await using registry = testRegistry();
    const session = await registry.start(startOptions(python!, [fixture, "150"]));
    await waitForText(session, { pattern: "READY", timeoutMs: 15_000, pollIntervalMs: 10, matchScreen: true });
    const first = await press(session, "x");
    // Due 150 ms after the key: inside the first settle's watch, so it is on screen, and the wake it
    // took is told (unsure), not claimed.
    expect({ answered: first.after!.text.includes("DONE 1"), settledBy: first.settledBy }).toEqual({
      answered: true,
      settledBy: "unsure",
    });
    for (let n = 2; n <= 3; n++) {
      const block = await press(session, "x");
      if (!block.after!.text.includes(`DONE ${n}`))
        expect({ settledBy: block.settledBy, quiet: block.quiet }).toEqual({ settledBy: "unsure", quiet: false });
      await waitForText(session, { pattern: `DONE ${n}`, timeoutMs: 5000, pollIntervalMs: 10, matchScreen: true });
    }
  },
);

test.skipIf(!linux || python === null)("a SIGALRM handler never raised: watched once, then idle", async () => {
  await using registry = testRegistry();
  const session = await registry.start(startOptions(python!, [fixture, "0"]));
  await waitForText(session, { pattern: "READY", timeoutMs: 15_000, pollIntervalMs: 10, matchScreen: true });
  expect(signalTimerSource(session.pid)).toBe("a handler for signal 14");
  for (let n = 1; n <= 3; n++) {
    const block = await press(session, "x");
    expect({ answered: block.after!.text.includes(`DONE ${n}`), settledBy: block.settledBy }).toEqual({
      answered: true,
      settledBy: "idle",
    });
  }
});

test.skipIf(!linux)("an interactive bash is not taken for a program with a SIGALRM timer", async () => {
  await using registry = testRegistry();
  const session = await registry.start(startOptions("bash", ["--norc", "--noprofile", "-i"], { env: { PS1: "$ " } }));
  await waitForText(session, { pattern: "$", timeoutMs: 15_000, pollIntervalMs: 10, matchScreen: true });
  expect(signalTimerSource(session.pid)).toBeUndefined();
  const block = await press(session, "echo $((6*7))\r");
  expect({ answered: block.after!.text.includes("42"), settledBy: block.settledBy }).toEqual({
    answered: true,
    settledBy: "idle",
  });
});
