/** The examples/ test files for the demo TUI pass through the CLI against their committed goldens. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { runCli } from "./cli-helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");

test("tui-tester test examples --ci passes every example", async () => {
  const run = await runCli(["examples", "--ci", "--json"], { cwd: ROOT });
  const report = JSON.parse(run.stdout);
  expect(
    report.tests
      .filter((t: { status: string }) => t.status !== "passed")
      .map((t: { title: string; failure: unknown }) => [t.title, t.failure]),
  ).toEqual([]);
  expect(run.code).toBe(0);
  expect(report.passed).toBeGreaterThanOrEqual(5);
  const compared = report.tests.flatMap((t: { snapshots: { status: string }[] }) => t.snapshots.map((s) => s.status));
  expect(compared.length).toBeGreaterThanOrEqual(6);
  expect(new Set(compared)).toEqual(new Set(["matched"]));
});
