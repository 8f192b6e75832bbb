/**
 * On a terminal, progress has a live status line (spinner, bar, running tests) that is cleared
 * when the run ends. Checked by running the CLI inside a PTY with the CLI itself.
 */
import { expect, test } from "bun:test";
import { bash, MAIN, runCli, scratch, shellSteps } from "./cli-helpers.ts";

test("a TTY gets a spinner and progress bar naming the running test, cleared at the end", async () => {
  await using s = await scratch();
  // the inner run: one slow test, in a subdirectory so the outer run does not pick it up
  await s.write("inner/slow.tui.json", {
    name: "slow one",
    session: bash(),
    steps: [...shellSteps("echo go", "go"), { type: "sleep", durationMs: 1500 }],
  });
  await s.write("outer.tui.json", {
    name: "progress on a tty",
    session: { command: process.execPath, args: [MAIN, "test", "inner"], cols: 100, rows: 12, env: { NO_COLOR: "" } },
    steps: [
      {
        type: "wait_for_text",
        pattern: "[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] ░{20} 0/1 · inner/slow\\.tui\\.json › slow one",
        regex: true,
        timeoutMs: 20_000,
      },
      { type: "wait_for_text", pattern: "1 passed", timeoutMs: 20_000 },
      { type: "assert_text", pattern: "\u001b[32m✓\u001b[0m inner/slow.tui.json › slow one", matchScreen: false },
      { type: "assert_text", pattern: "0/1", negate: true },
    ],
  });
  const run = await runCli(["outer.tui.json"], { cwd: s.dir });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.stringContaining("1 passed") });
});
