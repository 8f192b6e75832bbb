/** `tui-tester test` end to end as a subprocess: pass, fail, retries, timeout, filter, JSON, parallel workers. */
import { expect, test } from "bun:test";
import { statSync } from "node:fs";
import { join } from "node:path";
import { processAlive, until } from "../helpers.ts";
import { bash, MAIN, runCli, scratch, shellSteps } from "./cli-helpers.ts";

test("a passing test exits 0 with a ✓ line on stderr, no server log lines, nothing on stdout", async () => {
  await using s = await scratch();
  await s.write("echo.tui.json", {
    name: "echo works",
    session: bash(),
    steps: [...shellSteps("echo $((6*7))", "42"), { type: "assert_text", pattern: "42" }],
  });
  // TUI_TESTER_LOG unset, as in a user's shell: test mode keeps the session log out of the report
  const run = await runCli([], { cwd: s.dir, env: { TUI_TESTER_LOG: undefined } });
  expect(run.stdout).toBe("");
  expect(run.stderr).not.toContain("[tui-tester]");
  expect(run.stderr).toContain("✓ echo.tui.json › echo works");
  expect(run.stderr).toContain("1 passed");
  expect(run.code).toBe(0);
});

test("a failing step exits 1 and reports the step, the fix, the step list and the screen", async () => {
  await using s = await scratch();
  await s.write("fail.tui.json", {
    name: "wants goodbye",
    session: bash(),
    steps: [
      ...shellSteps("echo hello", "hello"),
      { type: "assert_text", pattern: "goodbye", timeoutMs: 300 },
      { type: "send_keys", keys: "Enter" },
    ],
  });
  const run = await runCli([], { cwd: s.dir });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("✗ fail.tui.json › wants goodbye");
  expect(run.stderr).toContain('step 2 (assert_text) failed: "goodbye" is not on the screen after waiting');
  expect(run.stderr).toContain("Fix: ");
  expect(run.stderr).toMatch(/✓ 1 send_text .*\n\s+✗ 2 assert_text .*\n\s+· step 3 not run/);
  expect(run.stderr).toContain("screen at the failure (40x8");
  expect(run.stderr).toMatch(/1 │hello\n/);
  expect(run.stderr).toContain("0 passed, 1 failed");
});

test("--json prints the report on stdout; a list file holds several tests", async () => {
  await using s = await scratch();
  await s.write("two.tui.json", [
    { name: "ok", session: bash(), steps: shellSteps("echo one", "one") },
    {
      name: "bad",
      session: bash(),
      steps: [...shellSteps("echo two", "two"), { type: "assert_text", pattern: "three", label: "needs three" }],
    },
    { name: "later", skip: true, session: bash(), steps: shellSteps("echo x", "x") },
  ]);
  const run = await runCli(["--json"], { cwd: s.dir });
  expect(run.code).toBe(1);
  const report = JSON.parse(run.stdout);
  expect(report).toMatchObject({ ok: false, passed: 1, failed: 1, skipped: 1 });
  const bad = report.tests.find((t: { name: string }) => t.name === "bad");
  expect(bad).toMatchObject({
    status: "failed",
    file: "two.tui.json",
    failure: { code: "ASSERTION_FAILED", step: 2, stepType: "assert_text" },
  });
  expect(bad.steps[2]).toMatchObject({ ok: false, label: "needs three" });
  expect(bad.screen.lines).toContain("two");
  expect(report.tests.map((t: { status: string }) => t.status).sort()).toEqual(["failed", "passed", "skipped"]);
});

test("--retries runs a failing test again and reports a pass on retry as flaky", async () => {
  await using s = await scratch();
  // Fails the first time (no marker file yet), passes the second.
  const script = "if [ -e marker ]; then echo SECOND; else touch marker; echo FIRST; fi";
  await s.write("flaky.tui.json", {
    name: "flaky",
    session: bash(),
    steps: [
      ...shellSteps(script, "(FIRST|SECOND)"),
      { type: "assert_text", pattern: "^SECOND$", regex: true, regexFlags: "m" },
    ],
  });
  const once = await runCli([], { cwd: s.dir });
  expect(once.code).toBe(1);
  await Bun.$`rm ${join(s.dir, "marker")}`;
  const retried = await runCli(["--json", "--retries", "1"], { cwd: s.dir });
  expect(retried.code).toBe(0);
  expect(JSON.parse(retried.stdout).tests[0]).toMatchObject({ status: "passed", flaky: true, attempts: 2 });
  expect(retried.stderr).toContain("↻ flaky.tui.json › flaky: attempt 2 of 2");
  expect(retried.stderr).toContain("flaky: passed on attempt 2");
});

test("a test over its time limit fails with TIMEOUT and the screen, and its session is stopped", async () => {
  await using s = await scratch();
  await s.write("slow.tui.json", {
    name: "sleeps",
    timeoutMs: 1500,
    session: bash(),
    steps: [...shellSteps("echo $$ > pid; echo started", "started"), { type: "sleep", durationMs: 600_000 }],
  });
  const run = await runCli(["--json"], { cwd: s.dir });
  expect(run.code).toBe(1);
  const result = JSON.parse(run.stdout).tests[0];
  expect(result.failure).toMatchObject({ code: "TIMEOUT", timedOut: true });
  expect(result.failure.message).toContain("within 1500 ms");
  expect(result.screen.lines).toContain("started");
  const pid = Number(await Bun.file(join(s.dir, "pid")).text());
  expect(() => process.kill(pid, 0)).toThrow();
});

test("--filter runs only the tests whose title matches", async () => {
  await using s = await scratch();
  await s.write("a.tui.json", [
    { name: "alpha one", session: bash(), steps: shellSteps("echo a1", "a1") },
    { name: "beta", session: bash(), steps: [{ type: "assert_text", pattern: "never there" }] },
  ]);
  const run = await runCli(["--filter", "alpha", "--json"], { cwd: s.dir });
  expect(run.code).toBe(0);
  expect(JSON.parse(run.stdout).tests.map((t: { name: string }) => t.name)).toEqual(["alpha one"]);
  const none = await runCli(["--filter", "gamma"], { cwd: s.dir });
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("No test title matches --filter /gamma/");
});

test("--workers N runs N tests at once, each in its own session", async () => {
  await using s = await scratch();
  // Each test announces itself, then waits until all four have: only possible if they run together.
  const barrier = (n: number) =>
    `touch started-${n}; until [ $(ls started-* | wc -l) -ge 4 ]; do sleep 0.02; done; echo "ALL IN ${n} $$"`;
  await s.write(
    "barrier.tui.json",
    [1, 2, 3, 4].map((n) => ({
      name: `test ${n}`,
      session: bash({ cols: 60 }),
      steps: shellSteps(barrier(n), `ALL IN ${n} \\d+`),
    })),
  );
  const run = await runCli(["--workers", "4", "--timeout", "20000", "--json"], { cwd: s.dir });
  expect(run.stderr).toContain("4 worker(s)");
  expect(run.code).toBe(0);
  const report = JSON.parse(run.stdout);
  expect(report).toMatchObject({ passed: 4, failed: 0, workers: 4 });
  // The barrier really needs them together: one worker at a time, the first three cannot pass.
  await Bun.$`rm -f ${s.dir}/started-*`;
  const serial = await runCli(["--workers", "1", "--timeout", "1000", "--json"], { cwd: s.dir });
  expect(serial.code).toBe(1);
  expect(JSON.parse(serial.stdout)).toMatchObject({ passed: 1, failed: 3 });
});

test("Ctrl-C (SIGINT) stops every session and exits 130", async () => {
  await using s = await scratch();
  await s.write("slow.tui.json", {
    name: "slow",
    session: bash(),
    steps: [...shellSteps("echo $$ > pid; echo written", "written"), { type: "sleep", durationMs: 600_000 }],
  });
  const proc = Bun.spawn([process.execPath, MAIN, "test"], {
    cwd: s.dir,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const pidFile = join(s.dir, "pid");
  await until(
    () => (statSync(pidFile, { throwIfNoEntry: false })?.size ?? 0) > 0,
    "the test's shell to write its pid",
    20_000,
  );
  const pid = Number((await Bun.file(pidFile).text()).trim());
  proc.kill("SIGINT");
  expect(await proc.exited).toBe(130);
  expect(await new Response(proc.stderr).text()).toContain("SIGINT, stopping all sessions");
  await until(() => !processAlive(pid), `shell ${pid} to be gone`);
});
