/**
 * The README's two commands as a new user meets them: the files of a fresh clone (no node_modules,
 * none above it either) and a PATH without Bun (only Node.js and npm), or without Node.js (only
 * Bun). The first command must set everything up and drive the bundled demo; the second must run
 * the tests (here one small file: the whole suite would run this test again).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { BUN_PROGRAMS, envWithPath, NODE_PROGRAMS, pathWithout } from "./toolchains.ts";

const ROOT = join(import.meta.dir, "..", "..");
const README = await Bun.file(join(ROOT, "README.md")).text();

/** The commands of the first code block under "## The two commands", comments stripped. */
function twoCommands(readme: string): string[] {
  const section = readme.split(/^## The two commands$/m)[1]?.split(/^## /m)[0] ?? "";
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
}

const [first, second] = twoCommands(README);
const ONE_TEST_FILE = "test/unit/ring-buffer.test.ts";
const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fresh", version: "0" } },
});

/** The files a clone has: tracked ones, plus new ones not ignored (so uncommitted work is tested too). */
async function freshClone(into: string): Promise<void> {
  const listed = Bun.spawnSync(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    stdout: "pipe",
  });
  for (const file of listed.stdout.toString().split("\0")) {
    if (file !== "" && existsSync(join(ROOT, file)))
      await cp(join(ROOT, file), join(into, file), { recursive: true, verbatimSymlinks: true });
  }
}

async function run(line: string, cwd: string, env: Record<string, string>) {
  const child = Bun.spawn(["sh", "-c", line], { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr, all: `$ ${line}\n${stdout}\n${stderr}` };
}

test("the README has exactly two commands there: set-up + demo, then the test suite", () => {
  expect([first, second]).toEqual(["npx --yes bun run demo", "npx --yes bun run test"]);
  expect(README).toContain("drop the `npx --yes`: `bun run demo`, then `bun run test`");
});

test(".ci/run calls exactly the README's commands", async () => {
  const ci = await Bun.file(join(ROOT, ".ci", "run")).text();
  const lines = ci.split("\n").map((l) => l.trim());
  expect(lines).toContain(first!);
  expect(lines).toContain(second!);
});

const flows = [
  {
    machine: "Node.js and npm only (no Bun on PATH)",
    leftOut: BUN_PROGRAMS,
    commands: [first!, second!],
    needs: "npx",
  },
  {
    machine: "Bun only (no Node.js or npm on PATH)",
    leftOut: NODE_PROGRAMS,
    commands: [first!, second!].map((c) => c.replace(/^npx --yes /, "")),
    needs: "bun",
  },
];

describe.each(flows)("a fresh clone on a machine with $machine", ({ leftOut, commands, needs }) => {
  let dir = "";
  let clone = "";
  let env: Record<string, string> = {};
  const missing = !Bun.which(needs);
  if (missing) test.skip(`needs ${needs} on this machine`, () => {});

  beforeAll(async () => {
    if (missing) return;
    dir = await mkdtemp(join(tmpdir(), "tui-tester-fresh-"));
    clone = join(dir, "tui-tester");
    await freshClone(clone);
    const path = await pathWithout(join(dir, "bin"), leftOut);
    // No viewer window (no display on Linux, and no Terminal.app on macOS); a private npm prefix hides global installs.
    env = envWithPath(path, {
      DISPLAY: "",
      WAYLAND_DISPLAY: "",
      TUI_TESTER_DEMO_VISIBLE: "0",
      npm_config_prefix: join(dir, "npm-prefix"),
      TUI_TESTER_LOG: "",
    });
  }, 120_000);
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test.skipIf(missing)("it starts with no node_modules, here or above, and without the left-out programs", () => {
    for (let d = clone; d !== dirname(d); d = dirname(d)) expect(existsSync(join(d, "node_modules")), d).toBe(false);
    for (const name of leftOut) expect(Bun.which(name, { PATH: env.PATH })).toBeNull();
  });

  test.skipIf(missing)(
    "the first command installs everything and drives the demo TUI to its end",
    async () => {
      const result = await run(commands[0]!, clone, env);
      expect(result.code, result.all).toBe(0);
      expect(existsSync(join(clone, "node_modules", "@xterm", "headless"))).toBe(true);
      expect(result.stdout, result.all).toContain("-> start_session:");
      expect(result.stdout, result.all).toContain("script ok=true");
      expect(result.stdout, result.all).toContain("demo exited: code 0");
    },
    300_000,
  );

  test.skipIf(missing)(
    "the clone's bin/tui-tester, what the README points MCP clients at, serves from another folder",
    async () => {
      const result = await run(`printf '%s\\n' '${INITIALIZE}' | ${join(clone, "bin", "tui-tester")}`, dir, env);
      expect(result.code, result.all).toBe(0);
      expect(JSON.parse(result.stdout.split("\n")[0]!).result.serverInfo.name, result.all).toBe("tui-tester");
    },
    120_000,
  );

  test.skipIf(missing)(
    "the second command runs the test suite (one file of it here)",
    async () => {
      const result = await run(`${commands[1]} ${ONE_TEST_FILE}`, clone, env);
      expect(result.code, result.all).toBe(0);
      expect(result.stderr, result.all).toMatch(/\b[1-9]\d* pass\b/);
      expect(result.stderr, result.all).toMatch(/\b0 fail\b/);
    },
    300_000,
  );
});
