/**
 * save_test { format: "ts" }: a real session saved as a bun test on the library, run with `bun test`
 * in CI mode (CI=true: the golden must exist, it is not written), as a person would keep it.
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync, symlinkSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN } from "../helpers.ts";
import { bash, scratch } from "./cli-helpers.ts";

setDefaultTimeout(90_000);
const REPO = join(import.meta.dir, "..", "..");
let c: TestClient;
let dir: Awaited<ReturnType<typeof scratch>>;
beforeAll(async () => {
  dir = await scratch();
  // as an installed package: node_modules/tui-tester
  mkdirSync(join(dir.dir, "node_modules"));
  symlinkSync(REPO, join(dir.dir, "node_modules", "tui-tester"));
  c = await connect({ cwd: dir.dir, env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  await dir[Symbol.asyncDispose]();
});

async function bunTest(file: string, env: Record<string, string | undefined> = {}) {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, CI: "true", ...env })) if (v !== undefined) merged[k] = v;
  const proc = Bun.spawn([BUN, "test", "--timeout", "60000", file], {
    cwd: dir.dir,
    env: merged,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, output: stdout + stderr };
}

test("a saved session as a bun test: readable library calls, passing under bun test with CI=true", async () => {
  await dir.write("data.txt", "alpha\nbeta\n");
  const { sessionId } = await c.ok("start_session", bash({ cols: 50, rows: 8 }));
  await c.ok("wait_for_text", { sessionId, pattern: "t$", errorOnTimeout: true });
  await c.ok("send_text", { sessionId, text: "cat data.txt\r" });
  await c.ok("send_keys", { sessionId, keys: "enter" });
  await c.ok("run_script", { sessionId, steps: [{ type: "assert_text", pattern: "beta" }] });
  const saved = await c.call("save_test", { sessionId, path: "t/cat.test.ts" });
  expect(saved.isError).toBe(false);
  expect(saved.text).toContain("Run it: bun test t/cat.test.ts");
  const text = await Bun.file(join(dir.dir, "t/cat.test.ts")).text();
  expect(text).toContain('import { launch } from "tui-tester";');
  expect(text).toContain('import "tui-tester/expect";');
  expect(text).toContain('await using bash = await launch("bash", {');
  expect(text).toContain('cwd: join(import.meta.dir, ".."),');
  expect(text).toContain("isolate: true,");
  expect(text).toContain('await bash.type("cat data.txt\\r"');
  expect(text).toContain('await bash.press("enter"');
  expect(text).toContain('await expect(bash).toShowText("beta", { timeoutMs: 0 });');
  expect(text).toContain('await expect(bash).toMatchScreenSnapshot("cat-end");');
  expect(text).not.toContain("sessionId");

  const run = await bunTest("t/cat.test.ts");
  expect(run.output).toContain("1 pass");
  expect(run.code).toBe(0);

  // CI mode does not write a missing golden: the test fails and says so
  rmSync(join(dir.dir, "t/__snapshots__/cat.test.ts/cat-end.txt"));
  const missing = await bunTest("t/cat.test.ts");
  expect(missing.code).not.toBe(0);
  expect(missing.output).toContain("cat-end");
});

test("a session with an input the library has no method for is refused, and nothing is written", async () => {
  const { sessionId } = await c.ok("start_session", bash({ cols: 50, rows: 8 }));
  await c.ok("wait_for_text", { sessionId, pattern: "t$", errorOnTimeout: true });
  await c.ok("send_raw", { sessionId, utf8: "echo raw\r" });
  const r = await c.call("save_test", { sessionId, path: "raw.test.ts" });
  expect(r.isError).toBe(true);
  expect(r.text).toContain("send_raw");
  expect(r.text).toContain("*.tui.json");
  expect(await Bun.file(join(dir.dir, "raw.test.ts")).exists()).toBe(false);
  expect(await Bun.file(join(dir.dir, "__snapshots__/raw.test.ts/raw-end.txt")).exists()).toBe(false);
});

test("a secret typed in the session is read from TUI_SECRET_1 in the bun test, never written", async () => {
  const secret = "s3cret-Pq81";
  const { sessionId } = await c.ok("start_session", bash({ cols: 50, rows: 8 }));
  await c.ok("wait_for_text", { sessionId, pattern: "t$", errorOnTimeout: true });
  await c.ok("send_text", { sessionId, text: "read -s PW; echo len=${#PW}\r" });
  await c.ok("send_text", {
    sessionId,
    text: `${secret}\r`,
    secret: true,
    waitFor: { pattern: "len=11", errorOnTimeout: true },
  });
  await c.ok("save_test", { sessionId, path: "pw.test.ts" });
  const text = await Bun.file(join(dir.dir, "pw.test.ts")).text();
  expect(text).not.toContain(secret);
  expect(text).toContain('await bash.type(secret("TUI_SECRET_1"), {');
  expect(text).toContain("secret: true");
  const run = await bunTest("pw.test.ts", { TUI_SECRET_1: `${secret}\r` });
  expect(run.output).toContain("1 pass");
  const unset = await bunTest("pw.test.ts", { TUI_SECRET_1: undefined });
  expect(unset.code).not.toBe(0);
  expect(unset.output).toContain("Set TUI_SECRET_1");
  expect(run.output + unset.output).not.toContain(secret);
});
