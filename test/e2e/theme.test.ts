/** TUI_TESTER_THEME sets the colours the app is told when it asks (OSC 11 background). */
import { expect, test } from "bun:test";
import { BUN } from "../helpers.ts";
import { connect, SERVER_ENTRY } from "./client.ts";

const ASK_BACKGROUND = `process.stdin.setRawMode(true); process.stdout.write("\\x1b]11;?\\x07"); process.stdin.once("data", (d) => { process.stdout.write("\\r\\nREPLY " + JSON.stringify(d.toString()) + "\\r\\n"); process.exit(0); });`;

test("the configured background is what OSC 11 reports", async () => {
  await using c = await connect({ env: { TUI_TESTER_THEME: JSON.stringify({ background: "#102030" }) } });
  const { sessionId } = await c.ok("start_session", { command: BUN, args: ["-e", ASK_BACKGROUND] });
  const seen = await c.ok("wait_for_text", { sessionId, pattern: "REPLY" });
  expect(seen.matched).toBe(true);
  expect(seen.screen.text).toContain("rgb:1010/2020/3030");
});

test("an invalid theme stops the server at start-up, naming the variable (issue 14; every setting: test/build/settings.test.ts)", () => {
  const result = Bun.spawnSync([BUN, SERVER_ENTRY], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, TUI_TESTER_THEME: "{not json" },
  });
  expect(result.exitCode).toBe(2);
  expect(result.stdout.toString()).toBe("");
  expect(result.stderr.toString()).toContain('TUI_TESTER_THEME="{not json": not valid JSON');
});
