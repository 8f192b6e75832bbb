/**
 * The library inside a user's `bun test` run (a child `bun test` in a temp project): golden files
 * written, compared, updated with -u and refused in CI; terminals closed after their test even when
 * it throws; the process-exit hook for scripts. The children ignore SIGHUP and SIGTERM, so only the
 * library's own cleanup (SIGKILL after the grace period) can end them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const LIB = join(import.meta.dir, "..", "..", "src", "lib");
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "tui-tester-bun-test-"));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text.replaceAll("$LIB", LIB));
  return dir;
}

function run(dir: string, args: string[], env: Record<string, string> = {}) {
  const { CI: _ci, ...base } = process.env;
  const result = Bun.spawnSync([process.execPath, ...args], {
    cwd: dir,
    env: { ...base, TUI_TESTER_LOG: "silent", ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: result.exitCode, output: result.stdout.toString() + result.stderr.toString() };
}

/** The process group is gone: no member of it answers signal 0 (killed members may take a moment to be reaped). */
async function groupGone(pid: number, withinMs = 3000): Promise<boolean> {
  const deadline = performance.now() + withinMs;
  for (;;) {
    try {
      process.kill(-pid, 0);
    } catch {
      return true;
    }
    if (performance.now() > deadline) return false;
    await Bun.sleep(20);
  }
}

const SCREEN_TEST = `
import { expect, test } from "bun:test";
import { launch } from "$LIB/index.ts";
import "$LIB/expect.ts";

test("greets the user", async () => {
  const script = "printf 'hello %s\\\\n' \\"$WHO\\"; echo \\"pid $$\\"; sleep 30";
  const t = await launch("bash", { args: ["-c", script], env: { WHO: process.env.WHO ?? "world" }, cols: 30, rows: 4 });
  await expect(t).toShowText("pid");
  await expect(t).toMatchScreenSnapshot(undefined, { mask: [/\\d+/], timeoutMs: 300 });
  await expect(t).toMatchScreenSnapshot("first-row", { region: { row: 0, rows: 1 }, timeoutMs: 300 });
});
`;

describe("toMatchScreenSnapshot in a bun test run", () => {
  test("a missing golden is written then compared; a change fails with a diff; -u rewrites; CI writes none", () => {
    const dir = project({ "screen.test.ts": SCREEN_TEST });
    const golden = join(dir, "__snapshots__", "screen.test.ts", "greets-the-user.txt");
    const first = run(dir, ["test"]);
    expect(first.output).toContain("1 pass");
    // the default name is the test's title; the pid is masked
    expect(readFileSync(golden, "utf8")).toBe("hello world\npid ▒\n\n\n");
    expect(readFileSync(join(dir, "__snapshots__", "screen.test.ts", "first-row.txt"), "utf8")).toBe("hello world\n");
    expect(run(dir, ["test"]).output).toContain("1 pass");

    const changed = run(dir, ["test"], { WHO: "there" });
    expect(changed.code).toBe(1);
    expect(changed.output).toContain('Screen differs from snapshot "greets-the-user" in 1 row (row 0)');
    expect(changed.output).toContain("- row 0 |hello world|");
    expect(changed.output).toContain("+ row 0 |hello there|");
    expect(changed.output).toContain("bun test --update-snapshots");
    // the failure points at the test file's line
    expect(changed.output).toContain("screen.test.ts:10");

    expect(run(dir, ["test", "--update-snapshots"], { WHO: "there" }).output).toContain("1 pass");
    expect(readFileSync(golden, "utf8")).toStartWith("hello there\n");
    expect(run(dir, ["test", "-u"], { WHO: "again" }).code).toBe(0);
    expect(readFileSync(golden, "utf8")).toStartWith("hello again\n");

    rmSync(join(dir, "__snapshots__"), { recursive: true });
    const ci = run(dir, ["test"], { CI: "true" });
    expect(ci.code).toBe(1);
    expect(ci.output).toContain('No golden snapshot "greets-the-user"');
    expect(existsSync(golden)).toBe(false);
  }, 60_000);
});

const CLEANUP_TEST = `
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { launch } from "$LIB/index.ts";

const stubborn = ["-c", "trap '' HUP TERM; echo started; while :; do sleep 0.2; done"];
async function gone(pid: number): Promise<boolean> {
  for (const deadline = performance.now() + 3000; performance.now() < deadline; await Bun.sleep(20)) {
    try { process.kill(-pid, 0); } catch { return true; }
  }
  return false;
}

test("throws with a terminal running", async () => {
  const t = await launch("sh", { args: stubborn });
  await t.waitForText("started");
  writeFileSync("thrower.pid", String(t.pid));
  throw new Error("boom");
});

test("the thrower's terminal was killed after its test", async () => {
  expect(await gone(Number(readFileSync("thrower.pid", "utf8")))).toBe(true);
});

test("times out with a terminal running", async () => {
  const t = await launch("sh", { args: stubborn });
  await t.waitForText("started");
  writeFileSync("hung.pid", String(t.pid));
  await new Promise(() => {});
}, 1000);

test("the hung test's terminal was killed after its timeout", async () => {
  expect(await gone(Number(readFileSync("hung.pid", "utf8")))).toBe(true);
});

test("a terminal from a test that passes is closed too; autoClose: false is left to the owner", async () => {
  const closed = await launch("sh", { args: stubborn });
  const kept = await launch("sh", { args: stubborn }, );
  writeFileSync("closed.pid", String(closed.pid));
  writeFileSync("kept.pid", String(kept.pid));
});
`;

describe("cleanup", () => {
  test("every terminal launched in a test is killed after it, also when the test throws or times out", async () => {
    const dir = project({
      "cleanup.test.ts": CLEANUP_TEST.replace("{ args: stubborn }, )", "{ args: stubborn, autoClose: false })"),
    });
    const result = run(dir, ["test"]);
    expect(result.output).toContain("(fail) throws with a terminal running");
    expect(result.output).toContain("(pass) the thrower's terminal was killed after its test");
    expect(result.output).toContain("(fail) times out with a terminal running");
    expect(result.output).toContain("(pass) the hung test's terminal was killed after its timeout");
    expect(result.output).toContain("3 pass");
    const pid = (name: string) => Number(readFileSync(join(dir, name), "utf8"));
    expect(await groupGone(pid("thrower.pid"))).toBe(true);
    expect(await groupGone(pid("hung.pid"))).toBe(true);
    expect(await groupGone(pid("closed.pid"))).toBe(true);
    // autoClose: false outlived its test; bun test does not emit "exit", and the child ignores the
    // PTY's hang-up, so it is still there: the owner has to close it (kill it here)
    const kept = pid("kept.pid");
    const survived = !(await groupGone(kept, 300));
    if (survived) process.kill(-kept, "SIGKILL");
    expect(survived).toBe(true);
  }, 60_000);

  test("a script's terminals are killed when the process exits", async () => {
    const dir = project({
      "script.ts": `
import { writeFileSync } from "node:fs";
import { launch } from "$LIB/index.ts";
const t = await launch("sh", { args: ["-c", "trap '' HUP TERM; echo started; while :; do sleep 0.2; done"] });
await t.waitForText("started");
writeFileSync("script.pid", String(t.pid));
process.exit(0);
`,
    });
    expect(run(dir, ["script.ts"]).code).toBe(0);
    expect(await groupGone(Number(readFileSync(join(dir, "script.pid"), "utf8")))).toBe(true);
  }, 30_000);
});
