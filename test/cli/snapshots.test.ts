/** Golden screens through the CLI: written when missing, matched, a readable mismatch diff, --update-snapshots, --ci, ansi. */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bash, runCli, scratch, shellSteps } from "./cli-helpers.ts";

const echoTest = (value: string, extra: Record<string, unknown> = {}) => ({
  name: "echo",
  session: bash(),
  steps: [
    ...shellSteps(`echo ${value}`, value),
    { type: "expect_snapshot", name: "after-echo", timeoutMs: 300, ...extra },
  ],
});

test("missing golden: written and reported; the next run matches it", async () => {
  await using s = await scratch();
  await s.write("echo.tui.json", echoTest("42"));
  const golden = join(s.dir, "__snapshots__", "echo.tui.json", "after-echo.txt");
  const first = await runCli([], { cwd: s.dir });
  expect(first.code).toBe(0);
  expect(first.stderr).toContain("wrote new snapshot __snapshots__/echo.tui.json/after-echo.txt");
  expect(first.stderr).toContain("1 snapshot(s) written");
  // the whole 40x8 screen, trailing spaces trimmed per row
  expect(await Bun.file(golden).text()).toBe("t$ echo 42\n42\nt$\n\n\n\n\n\n");
  const second = await runCli(["--json"], { cwd: s.dir });
  expect(second.code).toBe(0);
  expect(second.stderr).not.toContain("snapshot(s) written");
  expect(JSON.parse(second.stdout).tests[0].snapshots).toEqual([
    { name: "after-echo", status: "matched", file: golden },
  ]);
});

test("a mismatch fails with a row diff naming the rows, the golden and the fix; --update-snapshots rewrites it", async () => {
  await using s = await scratch();
  await s.write("echo.tui.json", echoTest("42"));
  expect((await runCli([], { cwd: s.dir })).code).toBe(0);
  await s.write("echo.tui.json", echoTest("43"));
  const golden = join(s.dir, "__snapshots__", "echo.tui.json", "after-echo.txt");

  const mismatch = await runCli([], { cwd: s.dir });
  expect(mismatch.code).toBe(1);
  expect(mismatch.stderr).toContain(
    'step 2 (expect_snapshot) failed: Screen differs from snapshot "after-echo" in 2 rows (rows 0, 1)',
  );
  expect(mismatch.stderr).toContain(`golden: ${golden}`);
  expect(mismatch.stderr).toMatch(
    /- row 0 \|t\$ echo 42\|\n\s+\+ row 0 \|t\$ echo 43\|\n\s+- row 1 \|42\|\n\s+\+ row 1 \|43\|/,
  );
  expect(mismatch.stderr).toContain("Fix: If the new screen is right, rerun with --update-snapshots.");
  expect(await Bun.file(golden).text()).toStartWith("t$ echo 42\n");

  const updated = await runCli(["--update-snapshots"], { cwd: s.dir });
  expect(updated.code).toBe(0);
  expect(updated.stderr).toContain("updated snapshot __snapshots__/echo.tui.json/after-echo.txt");
  expect(await Bun.file(golden).text()).toStartWith("t$ echo 43\n43\n");
  expect((await runCli([], { cwd: s.dir })).code).toBe(0);
});

test("--ci fails on a missing golden and writes nothing", async () => {
  await using s = await scratch();
  await s.write("echo.tui.json", echoTest("42"));
  const run = await runCli(["--ci"], { cwd: s.dir });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('No golden snapshot "after-echo"');
  expect(existsSync(join(s.dir, "__snapshots__"))).toBe(false);
});

test("region and ansi: only the rectangle is kept, with SGR attributes per row", async () => {
  await using s = await scratch();
  const steps = [
    ...shellSteps("printf 'plain \\033[1;31mRED\\033[0m tail\\n'", "plain RED tail"),
    {
      type: "expect_snapshot",
      name: "red",
      format: "ansi",
      region: { row: 1, rows: 1, col: 6, cols: 3 },
      timeoutMs: 300,
    },
    { type: "expect_snapshot", name: "red-text", region: { row: 1, rows: 1 }, timeoutMs: 300 },
  ];
  await s.write("colour.tui.json", { name: "colour", session: bash({ cols: 60 }), steps });
  expect((await runCli(["--ci"], { cwd: s.dir })).code).toBe(1);
  expect((await runCli([], { cwd: s.dir })).code).toBe(0);
  const dir = join(s.dir, "__snapshots__", "colour.tui.json");
  expect(await Bun.file(join(dir, "red.ansi")).text()).toBe("\x1b[0;1;31mRED\x1b[0m\n");
  expect(await Bun.file(join(dir, "red-text.txt")).text()).toBe("plain RED tail\n");
  // the golden is compared, not just written: change its colour and the run fails, showing the escapes
  await Bun.write(join(dir, "red.ansi"), "\x1b[0;1;32mRED\x1b[0m\n");
  const run = await runCli([], { cwd: s.dir });
  expect(run.code).toBe(1);
  expect(run.stderr).toContain("- row 1 |\\e[0;1;32mRED\\e[0m|");
  expect(run.stderr).toContain("+ row 1 |\\e[0;1;31mRED\\e[0m|");
});
