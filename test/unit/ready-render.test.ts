/** The one settle line of an input's reply, for every way a settle ends. */
import { expect, test } from "bun:test";
import type { ScreenBlock } from "../../src/session/observe.ts";
import { renderText } from "../../src/tools/render-text.ts";
import { blockParts } from "../../src/tools/reply.ts";

const diff = { identical: true, cursorMoved: false, resized: false, changedLines: [], addedRows: [], removedRows: [] };
const line = (screen: Record<string, unknown>) =>
  renderText(
    "sent",
    blockParts({
      diff,
      cursor: { row: 0, col: 0, visible: true },
      settle: "adaptive",
      waitAfterMs: 4,
      waitedMs: 4,
      quiet: true,
      ...screen,
    } as unknown as ScreenBlock),
  ).split("\n")[1];

test("idle, periodic, exit and the quiet fallback", () => {
  expect(line({ settledBy: "idle", program: "vim" })).toBe("Settled in 4 ms: vim is waiting for input.");
  expect(line({ settledBy: "periodic", program: "btop" })).toBe(
    "Settled in 4 ms: btop is waiting for input and redraws on a timer.",
  );
  expect(line({ settledBy: "exit" })).toBe("Settled in 4 ms: the program exited.");
  expect(line({ settledBy: "quiet", fallback: "no /proc on darwin" })).toBe(
    "Settled after 4 ms: output quiet for 100 ms (no /proc on darwin; it may still be working).",
  );
});

test("a timeout names what is still busy, and only then advises waitFor", () => {
  const running = line({
    settledBy: "timeout",
    waitedMs: 2000,
    quiet: false,
    busy: { pid: 4242, command: "python3", state: "running" },
  });
  expect(running).toBe(
    "Still busy after 2000 ms: python3 (pid 4242) is running. Use waitFor or wait_for_idle to catch the rest.",
  );
  const timer = line({
    settledBy: "timeout",
    waitedMs: 2000,
    quiet: false,
    busy: { pid: 7, command: "node", state: "timer", timerDueMs: 3000 },
  });
  expect(timer).toContain("node (pid 7) is in a 3000 ms timed wait.");
  expect(line({ settledBy: "waitFor" })).toBe("Text seen after 4 ms.");
  expect(line({ settledBy: "waitFor" })).not.toContain("waitFor");
  expect(line({ settledBy: "fixed", waitAfterMs: 300, busy: { pid: 7, command: "make", state: "running" } })).toBe(
    "Waited 300 ms; make (pid 7) is running.",
  );
});

test("a finished shell command's status follows the settle line", () => {
  expect(line({ settledBy: "idle", program: "bash", commandStatus: 2 })).toBe(
    "Settled in 4 ms: bash is waiting for input. The command finished with exit status 2.",
  );
});

test("unsure says it cannot tell, why, and points to waitFor; never 'Settled'", () => {
  const unsure = line({ settledBy: "unsure", program: "python3", tickMs: 100, quiet: false });
  expect(unsure).toBe(
    "Cannot tell after 4 ms whether python3 is done: it wakes every 100 ms, and work it does at a wake-up " +
      "shows in no wait. Use waitFor for the text you expect.",
  );
});

test("a held first input says so before the settle", () => {
  expect(line({ settledBy: "idle", program: "app", held: { heldMs: 35, timedOut: false } })).toBe(
    "Held 35 ms until the program was through its start-up and reading its terminal. " +
      "Settled in 4 ms: app is waiting for input.",
  );
  expect(line({ settledBy: "idle", program: "app", held: { heldMs: 1000, timedOut: true } })).toStartWith(
    "Sent after 1000 ms although the program was still starting up",
  );
});
