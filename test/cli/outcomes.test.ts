/**
 * Test files end to end (`tui-tester test` as a subprocess): assert_text waits as the library's
 * matchers do, expect_exit checks the exit code or signal, expect_file checks what a program wrote.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { bash, runCli, scratch } from "./cli-helpers.ts";

const prompt = { type: "wait_for_text", pattern: "t$" };
/** Type a command without waiting for anything: the next step starts while it runs. */
const run = (command: string) => ({ type: "send_text", text: `${command}\r`, captureScreen: false });

test("assert_text in a test file waits for text that appears 200 ms after the step begins, and for text to go", async () => {
  await using s = await scratch();
  await s.write("late.tui.json", [
    {
      name: "appears late",
      session: bash(),
      steps: [prompt, run("sleep 0.2; echo LATE-$((40+2))"), { type: "assert_text", pattern: "LATE-42" }],
    },
    {
      name: "goes late",
      session: bash(),
      steps: [
        prompt,
        {
          type: "send_text",
          text: "echo GONE-$((1+1))\r",
          waitFor: { pattern: "^GONE-2$", regex: true, regexFlags: "m" },
        },
        run("sleep 0.2; clear"),
        { type: "assert_text", pattern: "GONE-2", negate: true },
      ],
    },
  ]);
  const result = await runCli(["--json"], { cwd: s.dir });
  const report = JSON.parse(result.stdout);
  expect(report.tests.map((t: { failure?: unknown }) => t.failure)).toEqual([undefined, undefined]);
  expect(result.code).toBe(0);
  for (const t of report.tests) {
    const step = t.steps.at(-1);
    expect(step.summary).toMatch(/^Assertion passed: ".+" (present|absent) after \d+ ms$/);
    // it did wait: the text changed about 200 ms after the step began
    expect(step.elapsedMs).toBeGreaterThanOrEqual(150);
  }
});

test("an assert_text that never holds fails after its timeout, saying what it expected, how long, and the screen", async () => {
  await using s = await scratch();
  await s.write("never.tui.json", {
    name: "never",
    defaults: { timeoutMs: 400 },
    session: bash(),
    steps: [
      prompt,
      { type: "assert_text", pattern: "NEVER-THERE" },
      { type: "assert_text", pattern: "t$", negate: true, timeoutMs: 300 },
    ],
  });
  const failed = await runCli([], { cwd: s.dir });
  expect(failed.code).toBe(1);
  expect(failed.stderr).toMatch(
    /step 1 \(assert_text\) failed: "NEVER-THERE" is not on the screen after waiting (\d+) ms \(timeoutMs 400, looked \d+ times\)/,
  );
  const waited = Number(/after waiting (\d+) ms/.exec(failed.stderr)![1]);
  expect(waited).toBeGreaterThanOrEqual(400);
  expect(failed.stderr).toContain("screen at the failure");
  expect(failed.stderr).toMatch(/0 │t\$/);

  await s.write("never.tui.json", {
    name: "stays",
    session: bash(),
    steps: [prompt, { type: "assert_text", pattern: "t$", negate: true, timeoutMs: 300 }],
  });
  const stays = await runCli([], { cwd: s.dir });
  expect(stays.code).toBe(1);
  expect(stays.stderr).toMatch(
    /"t\$" is still on the screen after waiting \d+ ms \(timeoutMs 300, looked \d+ times\); expected it absent\./,
  );
});

test("expect_exit: the right code passes; a wrong code, a signal and a program still running fail naming what differed", async () => {
  await using s = await scratch();
  const sh = (script: string) => ({ command: "sh", args: ["-c", script], cols: 40, rows: 6 });
  await s.write("exit.tui.json", [
    { name: "code 3", session: sh("echo bye; exit 3"), steps: [{ type: "expect_exit", code: 3 }] },
    { name: "zero", session: sh("echo ok"), steps: [{ type: "expect_exit" }] },
    { name: "killed", session: sh("kill -TERM $$"), steps: [{ type: "expect_exit", signal: "TERM" }] },
    { name: "wrong code", session: sh("echo oops; exit 2"), steps: [{ type: "expect_exit", code: 0 }] },
    { name: "signal not code", session: sh("kill -KILL $$"), steps: [{ type: "expect_exit" }] },
    { name: "still running", session: sh("echo waiting; sleep 30"), steps: [{ type: "expect_exit", timeoutMs: 300 }] },
  ]);
  const result = await runCli(["--json"], { cwd: s.dir });
  expect(result.code).toBe(1);
  const byName = Object.fromEntries(
    JSON.parse(result.stdout).tests.map((t: { name: string; status: string; failure?: { message: string } }) => [
      t.name,
      t.failure?.message ?? t.status,
    ]),
  );
  expect(byName).toEqual({
    "code 3": "passed",
    zero: "passed",
    killed: "passed",
    "wrong code": "The program ended with exit code 2: expected exit code 0, got 2.",
    "signal not code": "The program ended with killed by SIGKILL: expected exit code 0, got killed by SIGKILL.",
    "still running": "The program was still running after 300 ms; expected it to exit with code 0.",
  });
  expect(result.stderr).toMatch(/wrong code[\s\S]*screen at the failure[\s\S]*│oops/);
});

test("expect_exit: code and signal together are refused before anything runs", async () => {
  await using s = await scratch();
  await s.write("bad.tui.json", {
    name: "both",
    session: { command: "true" },
    steps: [{ type: "expect_exit", code: 0, signal: "TERM" }],
  });
  const result = await runCli([], { cwd: s.dir });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("steps[0] (expect_exit): expect_exit takes code or signal, not both");
});

test("expect_file: exists, contains, equals and a golden with a mask pass; each fails with what differed", async () => {
  await using s = await scratch();
  // the program writes out.txt 200 ms after it starts: the checks wait for it
  const writer = {
    command: "sh",
    args: ["-c", "sleep 0.2; printf 'hello\\nrun at 12:34:56\\nend\\n' > out.txt; echo written; sleep 30"],
    cols: 40,
    rows: 6,
  };
  const mask = [{ regex: "\\d\\d:\\d\\d:\\d\\d" }];
  await s.write(
    "files.tui.yaml",
    Bun.YAML.stringify([
      {
        name: "passing",
        session: writer,
        steps: [
          { type: "expect_file", path: "out.txt" },
          { type: "expect_file", path: "out.txt", contains: "run at" },
          { type: "expect_file", path: "out.txt", equals: "hello\nrun at 00:00:00\nend\n", mask },
          { type: "expect_file", path: "out.txt", golden: "out.txt", mask },
          { type: "expect_file", path: "nothing.txt", exists: false },
        ],
      },
    ]),
  );
  const first = await runCli(["--json"], { cwd: s.dir });
  expect(JSON.parse(first.stdout).tests[0].failure).toBeUndefined();
  expect(first.code).toBe(0);
  const golden = join(s.dir, "__snapshots__", "files.tui.yaml", "out.txt");
  expect(await Bun.file(golden).text()).toBe("hello\nrun at 12:34:56\nend\n");
  expect(JSON.parse(first.stdout).tests[0].snapshots).toEqual([{ name: "out.txt", status: "written", file: golden }]);
  // a golden from another run (another time of day) still matches under the mask
  await Bun.write(golden, "hello\nrun at 23:59:59\nend\n");
  const masked = await runCli(["--json", "--ci"], { cwd: s.dir });
  expect(JSON.parse(masked.stdout).tests[0].failure).toBeUndefined();
  // the file's golden counts as used: --ci fails on goldens no step names
  expect(masked.code).toBe(0);
  expect(await Bun.file(golden).text()).toBe("hello\nrun at 23:59:59\nend\n");

  await Bun.write(golden, "hello\nrun at 23:59:59\nEND\n");
  await s.write(
    "files.tui.yaml",
    Bun.YAML.stringify([
      { name: "missing", session: writer, steps: [{ type: "expect_file", path: "absent.txt", timeoutMs: 300 }] },
      {
        name: "contains",
        session: writer,
        steps: [{ type: "expect_file", path: "out.txt", contains: "goodbye", timeoutMs: 500 }],
      },
      {
        name: "equals",
        session: writer,
        steps: [{ type: "expect_file", path: "out.txt", equals: "hello\nend\n", timeoutMs: 500 }],
      },
      {
        name: "golden",
        session: writer,
        steps: [{ type: "expect_file", path: "out.txt", golden: "out.txt", mask, timeoutMs: 500 }],
      },
      {
        name: "present",
        session: writer,
        steps: [
          { type: "expect_file", path: "out.txt" },
          { type: "expect_file", path: "out.txt", exists: false, timeoutMs: 300 },
        ],
      },
    ]),
  );
  const failed = await runCli(["--json", "--ci"], { cwd: s.dir });
  expect(failed.code).toBe(1);
  const messages = Object.fromEntries(
    JSON.parse(failed.stdout).tests.map((t: { name: string; failure?: { message: string } }) => [
      t.name,
      t.failure?.message,
    ]),
  );
  const out = join(s.dir, "out.txt");
  expect(messages.missing).toMatch(
    new RegExp(`^File ${RegExp.escape(join(s.dir, "absent.txt"))} is missing \\(checked for \\d+ ms\\)\\.$`),
  );
  expect(messages.contains).toMatch(
    /does not contain "goodbye"; it has 26 bytes \(checked for \d+ ms\):\n {2}\|hello\|\n {2}\|run at 12:34:56\|/,
  );
  expect(messages.contains).toStartWith(`File ${out} `);
  expect(messages.equals).toContain(`File ${out} differs from the expected text in 3 line(s) (checked for`);
  expect(messages.equals).toContain("  - line 2 |end|\n  + line 2 |run at 12:34:56|");
  expect(messages.golden).toContain(`File ${out} differs from its golden in 1 line(s) (checked for`);
  expect(messages.golden).toContain(`\n  golden: ${golden}\n`);
  expect(messages.golden).toContain("  - line 3 |END|\n  + line 3 |end|");
  expect(messages.present).toMatch(
    /^File .*out\.txt exists \(26 bytes\); expected no file there \(checked for \d+ ms\)\./,
  );
});
