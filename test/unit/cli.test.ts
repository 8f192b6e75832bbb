/** Command-line flags of the source entry: they answer and exit without starting the server. */
import { expect, test } from "bun:test";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { ENVIRONMENT } from "../../src/config.ts";

const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

function run(...args: string[]) {
  const result = Bun.spawnSync([process.execPath, MAIN, ...args], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, TUI_TESTER_LOG: "silent" },
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

test("--version and -v print package.json's version", () => {
  for (const flag of ["--version", "-v"])
    expect(run(flag)).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: "" });
});

test("--help and -h list both flags and every environment variable with its default", () => {
  for (const flag of ["--help", "-h"]) {
    const { code, stdout, stderr } = run(flag);
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
    for (const f of ["--help", "-h", "--version", "-v"]) expect(stdout).toContain(f);
    for (const e of ENVIRONMENT) {
      const line = stdout.split("\n").find((l) => l.trimStart().startsWith(`${e.name} `));
      expect(line, e.name).toBeDefined();
      expect(line).toContain(e.meaning);
    }
  }
});

test("an unknown flag exits 2 and prints the help on stderr, nothing on stdout", () => {
  const { code, stdout, stderr } = run("--nope");
  expect(code).toBe(2);
  expect(stdout).toBe("");
  expect(stderr).toContain('Unknown argument "--nope"');
  expect(stderr).toContain("Usage: tui-tester");
});
