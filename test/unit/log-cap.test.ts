/** The stderr log's rate cap is 50 lines a second (src/util/log.ts): the 51st line of a burst is held back. */
import { expect, test } from "bun:test";
import { join } from "node:path";

/** Run `body` in a child with the log on; its stderr lines. */
async function childLog(body: string): Promise<string[]> {
  const logModule = join(import.meta.dir, "..", "..", "src", "util", "log.ts");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "TUI_TESTER_LOG") env[k] = v;
  const script = `const { log } = await import(${JSON.stringify(logModule)});\n${body}`;
  const proc = Bun.spawn([process.execPath, "-e", script], { env, stderr: "pipe", stdout: "pipe" });
  const [stderr] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  return stderr.split("\n").filter((line) => line.length > 0);
}

test("a burst of 60 short lines writes exactly 50; the held-back ones are counted on the next line out", async () => {
  // The first window runs from process start; begin the burst after it so it falls in one window
  // (60 short lines take well under a millisecond).
  const lines = await childLog(`
    await Bun.sleep(Math.max(0, 1001 - performance.now()));
    for (let i = 0; i < 60; i++) log("line " + i);
    await Bun.sleep(1001);
    log("after");`);
  expect(lines.filter((l) => /\] line \d+$/.test(l)).length).toBe(50);
  expect(lines.at(-1)).toBe("[tui-tester] (10 log lines suppressed) after");
});
