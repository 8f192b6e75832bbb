/** The stderr log is bounded: a burst of log calls (binary output, a failing reply) cannot flood stderr. */
import { expect, test } from "bun:test";
import { join } from "node:path";

test("a burst of 5,000 long log lines writes at most one second's allowance, each line cut short", async () => {
  const logModule = join(import.meta.dir, "..", "..", "src", "util", "log.ts");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "TUI_TESTER_LOG") env[k] = v;
  const proc = Bun.spawn(
    [
      process.execPath,
      "-e",
      `const { log } = await import(${JSON.stringify(logModule)}); for (let i = 0; i < 5000; i++) log("x".repeat(100000));`,
    ],
    { env, stderr: "pipe", stdout: "pipe" },
  );
  const [stderr, stdout] = await Promise.all([
    new Response(proc.stderr).text(),
    new Response(proc.stdout).text(),
    proc.exited,
  ]);
  const lines = stderr.split("\n").filter((l) => l.length > 0);
  expect(stdout).toBe("");
  expect(lines.length).toBeGreaterThan(0);
  expect(lines.length).toBeLessThanOrEqual(100);
  expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(2200);
  expect(stderr.length).toBeLessThan(250_000);
});
