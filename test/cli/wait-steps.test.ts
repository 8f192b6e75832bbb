/** Test files (`tui-tester test`): waits skip the echo, anyOf works in a step, exits are named. */
import { expect, test } from "bun:test";
import { bash, runCli, scratch } from "./cli-helpers.ts";

test("an echo-marked command's step waits for the output; anyOf says which; an exit names its code", async () => {
  await using s = await scratch();
  await s.write("waits.tui.json", {
    name: "echo waits",
    session: bash(),
    steps: [
      { type: "wait_for_text", pattern: "t$" },
      // the echo holds "failed" at once; the output only after the next line
      {
        type: "send_text",
        text: "read -r _; echo build failed\r",
        waitFor: { anyOf: ["Compiled", "failed"], timeoutMs: 300 },
        optional: true,
      },
      { type: "assert_text", pattern: "^build failed$", regex: true, regexFlags: "m", negate: true },
      { type: "send_text", text: "\r", waitFor: { anyOf: ["Compiled", "failed"], errorOnTimeout: true } },
      { type: "assert_text", pattern: "^build failed$", regex: true, regexFlags: "m" },
    ],
  });
  await s.write("exit.tui.json", {
    name: "exit ends the wait",
    session: bash(),
    steps: [
      { type: "wait_for_text", pattern: "t$" },
      { type: "send_text", text: "exit 4\r" },
      { type: "wait_for_text", pattern: "NEVER", timeoutMs: 30_000 },
    ],
  });
  const ok = await runCli(["waits.tui.json"], { cwd: s.dir });
  expect(ok.stderr + ok.stdout).toContain("1 passed");
  const exited = await runCli(["exit.tui.json"], { cwd: s.dir });
  expect(exited.code).not.toBe(0);
  expect(exited.stderr + exited.stdout).toMatch(/"NEVER" did not appear: the program (had )?exited \(exit code 4\)/);
});
