/** The compiled executable runs `test` too: the examples pass, a failing file fails with exit 1 and a JUnit report. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { XMLValidator } from "fast-xml-parser";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTarget, hostTarget } from "../../build.ts";
import { bash, runCli, shellSteps } from "./cli-helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");
const target = hostTarget();
let dir = "";
let binary = "";

beforeAll(async () => {
  if (!target) return;
  dir = await mkdtemp(join(tmpdir(), "tui-tester-cli-bin-"));
  binary = (await buildTarget(target, dir)).outfile;
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!target || process.platform === "win32")(`compiled ${target?.name ?? "host"} binary: test mode`, () => {
  test("runs the examples against their goldens from a directory without node_modules", async () => {
    const run = await runCli([join(ROOT, "examples"), "--ci", "--json"], {
      cwd: dir,
      command: [binary],
      env: { TUI_TESTER_LOG: undefined },
    });
    expect(run.stderr).toContain("✓");
    expect(run.stderr).not.toContain("[tui-tester]");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, failed: 0 });
  });

  test("a failing test exits 1, prints the failure and writes valid JUnit", async () => {
    await Bun.write(
      join(dir, "fail.tui.json"),
      JSON.stringify({
        name: "wrong answer",
        session: bash(),
        steps: [
          ...shellSteps("echo $((6*7))", "42"),
          { type: "assert_text", pattern: "^41$", regex: true, regexFlags: "m", timeoutMs: 200 },
        ],
      }),
    );
    const run = await runCli(["fail.tui.json", "--junit", "junit.xml"], { cwd: dir, command: [binary] });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('step 2 (assert_text) failed: "^41$" is not on the screen after waiting');
    expect(XMLValidator.validate(await Bun.file(join(dir, "junit.xml")).text())).toBe(true);
  });

  test("test --help and a usage error", async () => {
    expect((await runCli(["--help"], { cwd: dir, command: [binary] })).stdout).toContain("Usage: tui-tester test");
    expect((await runCli(["--workers", "x"], { cwd: dir, command: [binary] })).code).toBe(2);
  });
});
