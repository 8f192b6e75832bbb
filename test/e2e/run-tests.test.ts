/**
 * run_tests over MCP: a passing and a failing file give "1 passed, 1 failed" in the text the model
 * reads, with the failing step, its message and the screen; progress per test; grep, update, repeat,
 * shard and the time budget.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { bash, scratch, shellSteps } from "../cli/cli-helpers.ts";
import { connect, type TestClient } from "./client.ts";

setDefaultTimeout(90_000);
let c: TestClient;
let dir: Awaited<ReturnType<typeof scratch>>;
beforeAll(async () => {
  dir = await scratch();
  c = await connect({ cwd: dir.dir, env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
  await dir.write("t/pass.tui.json", { name: "echoes", session: bash(), steps: shellSteps("echo hi", "hi") });
  await dir.write("t/fail.tui.json", {
    name: "wrong word",
    session: bash(),
    steps: [...shellSteps("echo apple", "apple"), { type: "assert_text", pattern: "banana", label: "the fruit" }],
  });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  await dir[Symbol.asyncDispose]();
});

describe("run_tests", () => {
  test("a passing and a failing file: 1 passed, 1 failed, the failing step and the screen, in the text", async () => {
    const progress: string[] = [];
    const r = await c.call("run_tests", { paths: ["t"] }, { onprogress: (p: any) => progress.push(p.message) });
    expect(r.isError).toBe(true);
    const lines = r.text.split("\n");
    expect(lines[0]).toBe("Error TESTS_FAILED: 1 failed, 0 not run.");
    expect(lines[1]).toStartWith("Fix: ");
    expect(lines[2]).toMatch(/^1 passed, 1 failed of 2 test\(s\) in /);
    expect(r.text).toContain('FAILED t/fail.tui.json › wrong word: step 2 (assert_text "the fruit")');
    expect(r.text).toContain("banana");
    expect(r.text).toContain("screen at the failure");
    expect(r.text).toMatch(/│t\$ echo apple/);
    expect(r.text).not.toContain("FAILED t/pass.tui.json");
    expect(progress.some((m) => /^\d\/2 (passed|failed): t\/(pass|fail)\.tui\.json/.test(m))).toBe(true);
    expect(r.data).toMatchObject({ passed: 1, failed: 1, failures: ["t/fail.tui.json › wrong word"] });
  });

  test("in the default text mode the report is all in the text (no structuredContent)", async () => {
    await using text = await connect({ cwd: dir.dir, env: { TUI_TESTER_OUTPUT: "text" } });
    const r = await text.call("run_tests", { paths: ["t"] });
    expect(Object.keys(r.data)).toEqual([]);
    expect(r.text).toMatch(/^Error TESTS_FAILED: .*\nFix: .*\n1 passed, 1 failed of 2 test/);
    expect(r.text).toContain('FAILED t/fail.tui.json › wrong word: step 2 (assert_text "the fruit")');
    expect(r.text).toContain("screen at the failure");
  });

  test("grep picks tests by title; a passing run is not an error", async () => {
    const r = await c.call("run_tests", { paths: ["t"], grep: "echoes" });
    expect(r.isError).toBe(false);
    expect(r.text.split("\n")[0]).toMatch(/^1 passed, 0 failed of 1 test/);
  });

  test("repeat and shard: the same selection as the CLI", async () => {
    const repeated = await c.call("run_tests", { paths: ["t/pass.tui.json"], repeat: 3 });
    expect(repeated.text).toMatch(/^3 passed, 0 failed of 3 test/);
    const shard = await c.call("run_tests", { paths: ["t"], shard: "2/2" });
    expect(shard.text).toMatch(/^1 passed, 0 failed of 1 test/); // sorted: fail (shard 1), pass (shard 2)
  });

  test("update writes goldens; a changed screen then fails with the row diff", async () => {
    await dir.write("g/snap.tui.json", {
      name: "snap",
      session: bash({ env: { PS1: "t$ ", WORD: "one" } }),
      steps: [...shellSteps("echo $WORD", "one"), { type: "expect_snapshot", name: "word" }],
    });
    const first = await c.call("run_tests", { paths: ["g"], update: true });
    expect(first.text).toMatch(/1 passed, 0 failed of 1 test.*1 golden\(s\) written/s);
    expect(existsSync(join(dir.dir, "g/__snapshots__/snap.tui.json/word.txt"))).toBe(true);
    await dir.write("g/snap.tui.json", {
      name: "snap",
      session: bash({ env: { PS1: "t$ ", WORD: "two" } }),
      steps: [...shellSteps("echo $WORD", "two"), { type: "expect_snapshot", name: "word" }],
    });
    const second = await c.call("run_tests", { paths: ["g"] });
    expect(second.text).toContain("1 failed");
    expect(second.text).toContain("step 2 (expect_snapshot)");
    expect(second.text).toContain("run again with update: true");
    expect(second.text).toMatch(/one/);
    expect(second.text).toMatch(/two/);
  });

  test("the time budget: a test past it times out, the ones after it are listed as not run", async () => {
    const slow = (name: string) => ({
      name,
      session: bash(),
      steps: [{ type: "wait_for_text", pattern: "never shown", timeoutMs: 60_000 }],
    });
    await dir.write("slow/a.tui.json", slow("a"));
    await dir.write("slow/b.tui.json", slow("b"));
    await dir.write("slow/c.tui.json", slow("c"));
    const r = await c.call("run_tests", { paths: ["slow"], timeoutMs: 1500 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(
      /^Error TESTS_FAILED: .*\nFix: .*\n0 passed, 2 failed, 1 not run \(the 1\.5 s budget ran out\) of 3 test/,
    );
    expect(r.text).toContain("timed out");
    expect(r.text).toContain("not run: slow/c.tui.json › c");
  });

  test("bun test files (what save_test ts writes) run under bun test in CI mode, failures in the same report", async () => {
    mkdirSync(join(dir.dir, "node_modules"), { recursive: true });
    symlinkSync(join(import.meta.dir, "..", ".."), join(dir.dir, "node_modules", "tui-tester"));
    const file = (word: string, want: string) =>
      [
        'import { expect, test } from "bun:test";',
        'import { launch } from "tui-tester";',
        'import "tui-tester/expect";',
        `test("says ${want}", async () => {`,
        '  await using sh = await launch("bash", { args: ["--norc", "--noprofile"], env: { PS1: "t$ " }, isolate: true });',
        '  await sh.waitForText("t$");',
        `  await sh.type("echo ${word}\\r");`,
        `  await expect(sh).toShowText("${want}", { timeoutMs: 2000 });`,
        "});",
        "",
      ].join("\n");
    await dir.write("ts/good.test.ts", file("pear", "pear"));
    await dir.write("ts/bad.test.ts", file("plum", "prune"));
    const r = await c.call("run_tests", { paths: ["ts/good.test.ts", "ts/bad.test.ts"] });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Error TESTS_FAILED: .*\nFix: .*\n1 passed, 1 failed of 2 test/);
    expect(r.text).toContain("FAILED ts/bad.test.ts › says prune:");
    expect(r.text).toContain("expected the screen to show");
    expect(r.text).toContain("echo plum");
    // a folder: its bun tests on the library, not other *.test.ts files
    await dir.write("ts/unrelated.test.ts", 'import { test } from "bun:test";\ntest("not a tui test", () => {});\n');
    const folder = await c.call("run_tests", { paths: ["ts"] });
    expect(folder.text).toMatch(/^Error TESTS_FAILED: .*\nFix: .*\n1 passed, 1 failed of 2 test/);
  });

  test("bad input names the problem: no such path, a bad grep, nothing matching", async () => {
    const missing = await c.call("run_tests", { paths: ["nowhere"] });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("nowhere");
    const none = await c.call("run_tests", { paths: ["t"], grep: "zzz" });
    expect(none.text).toContain('No test title matches grep "zzz"');
    const bad = await c.call("run_tests", { paths: ["t"], grep: "(" });
    expect(bad.text).toContain("INVALID_REGEX");
    const shard = await c.call("run_tests", { paths: ["t"], shard: "3/2" });
    expect(shard.text).toContain('shard "3/2" is not i/n');
  });
});
