/**
 * Signal timers no wait shows, through a real PTY: a program answering from a SIGALRM handler is not
 * claimed done before its answer on its first input (the first settle watches it at rest, and a wake
 * no wait explains makes its settles say they cannot tell), nor one due after that watch: every
 * settle of a program with a SIGALRM handler says it cannot tell; an interactive bash (a job-control shell: its SIGALRM is TMOUT's) is not
 * taken for one. fish's helper threads, parked with deadlines after each command, are its own
 * housekeeping, not timers.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { observe } from "../../src/session/observe.ts";
import { look } from "../../src/session/ready/reading.ts";
import { ALARM_UNSEEN, jobControlShell, signalTimerSource } from "../../src/session/ready/signal-timers.ts";
import { hostArch } from "../../src/session/ready/syscalls.ts";
import type { Session } from "../../src/session/session.ts";
import { waitForText } from "../../src/session/wait.ts";
import { until } from "../helpers.ts";
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

test.skipIf(!linux || python === null)(
  "an alarm due after the first settle's watch is not claimed either: a SIGALRM handler makes every settle unsure",
  async () => {
    await using registry = testRegistry();
    const session = await registry.start(startOptions(python!, [fixture, "900"]));
    await waitForText(session, { pattern: "READY", timeoutMs: 15_000, pollIntervalMs: 10, matchScreen: true });
    for (let n = 1; n <= 2; n++) {
      const block = await press(session, "x");
      // Due 900 ms after the key, past the 500 ms watch: before, the first settle said idle here.
      expect({ settledBy: block.settledBy, quiet: block.quiet, unseen: block.unseen }).toEqual({
        settledBy: "unsure",
        quiet: false,
        unseen: ALARM_UNSEEN,
      });
      await waitForText(session, { pattern: `DONE ${n}`, timeoutMs: 5000, pollIntervalMs: 10, matchScreen: true });
    }
  },
);

test.skipIf(!linux || python === null)("a SIGALRM handler never raised: answered at once, still unsure", async () => {
  await using registry = testRegistry();
  const session = await registry.start(startOptions(python!, [fixture, "0"]));
  await waitForText(session, { pattern: "READY", timeoutMs: 15_000, pollIntervalMs: 10, matchScreen: true });
  expect(signalTimerSource(session.pid)).toBe("a handler for signal 14");
  for (let n = 1; n <= 3; n++) {
    const block = await press(session, "x");
    expect({ answered: block.after!.text.includes(`DONE ${n}`), settledBy: block.settledBy }).toEqual({
      answered: true,
      settledBy: "unsure",
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

const fish = Bun.which("fish");
if (!linux || fish === null) console.warn("skipping the fish settle: it needs Linux /proc and fish");

test.skipIf(!linux || fish === null)(
  "fish's helper threads are its housekeeping at its prompt, not in its wait",
  async () => {
    await using registry = testRegistry();
    const session = await registry.start(
      startOptions(fish!, ["--no-config", "-i", "-C", "function fish_prompt; printf '$ '; end"]),
    );
    await waitForText(session, { pattern: "$", timeoutMs: 15_000, pollIntervalMs: 10, matchScreen: true });
    expect(jobControlShell(session.pid, "fish")).toBe(true);
    const block = await press(session, "echo (math 6 '*' 7)\r");
    expect({ answered: block.after!.text.includes("42"), settledBy: block.settledBy }).toEqual({
      answered: true,
      settledBy: "idle",
    });
    // Its I/O threads and fd monitor wait 500 and 256 ms for more work after a command, then exit.
    const timedHelper = () =>
      look(hostArch()!, session.pid, [session.pid]).threads.find(
        (t) => t.tid !== t.pid && t.activity.kind === "wait" && t.activity.timed,
      );
    await until(() => timedHelper() !== undefined, "a fish helper thread in a timed wait", 2000);
    expect(timedHelper()?.activity ?? { shellHelper: true }).toMatchObject({ shellHelper: true });
    // fish's `wait` for background jobs: its main thread waits on its fd monitor, which is then no
    // housekeeping: the settle waits for the jobs.
    const waited = await press(session, "sleep 0.3 &; sleep 0.1 &; wait; echo W(math 2 '*' 3)\r");
    expect({ answered: waited.after!.text.includes("W6"), settledBy: waited.settledBy }).toEqual({
      answered: true,
      settledBy: "idle",
    });
  },
);
