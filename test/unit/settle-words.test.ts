/** An input's settle line and wait_for_idle's summary tell the oracle's verdicts with the same phrases. */
import { expect, test } from "bun:test";
import type { WaitIdleResult } from "../../src/session/wait.ts";
import { busyText, idleSummary, missedWaitStatement, settleStatement } from "../../src/tools/settle-words.ts";

const input = (fields: Record<string, unknown>) =>
  settleStatement({ waitedMs: 4, waitAfterMs: 4, settledBy: "idle", ...fields } as Parameters<
    typeof settleStatement
  >[0]);
const idle = (fields: Record<string, unknown>) =>
  idleSummary({ elapsedMs: 4, idle: true, idleFor: 4, settledBy: "idle", ...fields } as WaitIdleResult, 2000);

test("a rest is worded alike after an input and after wait_for_idle", () => {
  expect(input({ program: "vim" })).toBe("Settled in 4 ms: vim is waiting for input.");
  expect(idle({ program: "vim" })).toBe("Idle after 4 ms: vim is waiting for input");
  expect(input({ settledBy: "periodic", program: "btop" })).toEndWith(
    "btop is waiting for input and redraws on a timer.",
  );
  expect(idle({ settledBy: "periodic", program: "btop" })).toEndWith(
    "btop is waiting for input and redraws on a timer",
  );
});

test("a rest on a short tick: both cannot tell, in the same words", () => {
  const prefix = "Cannot tell after 4 ms whether python3 is done: it wakes every 100 ms";
  expect(input({ settledBy: "unsure", program: "python3", tickMs: 100 })).toStartWith(`${prefix}, and work it does`);
  expect(idle({ settledBy: "unsure", program: "python3", tickMs: 100 })).toStartWith(`${prefix} and work at a wake-up`);
});

test("at rest with a SIGALRM handler: both cannot tell, naming what no wait shows", () => {
  const unseen = "it catches SIGALRM, and no wait shows an alarm it set (alarm, setitimer)";
  const prefix = `Cannot tell after 4 ms whether php is done: ${unseen}`;
  expect(input({ settledBy: "unsure", program: "php", unseen })).toBe(
    `${prefix}. Use waitFor for the text you expect.`,
  );
  expect(idle({ settledBy: "unsure", program: "php", unseen })).toBe(`${prefix} (use wait_for_text)`);
});

test("at rest but for a timer due after the limit: cannot tell, naming the timer", () => {
  const timer = { pid: 42, command: "sleep", state: "timer" as const, timerDueMs: 5000 };
  const prefix = "Cannot tell after 4 ms whether bash is done: sleep (pid 42) is in a 5000 ms timed wait";
  expect(input({ settledBy: "unsure", program: "bash", busy: timer })).toBe(
    `${prefix}, due after this wait's limit. Use waitFor for the text you expect.`,
  );
  expect(idle({ settledBy: "unsure", program: "bash", busy: timer })).toBe(
    `${prefix}, due after this wait's limit (use wait_for_text)`,
  );
});

test("a busy program is named with its pid, and a timed wait with its length", () => {
  const timer = { pid: 42, command: "sleep", state: "timer" as const, timerDueMs: 100 };
  expect(busyText(timer)).toBe("sleep (pid 42) is in a 100 ms timed wait");
  expect(input({ settledBy: "timeout", busy: timer, waitedMs: 2000 })).toStartWith(
    "Still busy after 2000 ms: sleep (pid 42) is in a 100 ms timed wait.",
  );
  expect(idle({ settledBy: "timeout", busy: timer })).toBe(
    "Still busy after 2000 ms: sleep (pid 42) is in a 100 ms timed wait",
  );
  const running = { pid: 7, command: "python3", state: "running" as const };
  expect(missedWaitStatement({ waitedMs: 30, busy: running })).toBe(
    "Waited 30 ms: the waitFor text did not appear; python3 (pid 7) is running.",
  );
});
