/**
 * Every TUI_TESTER_* setting is checked at start-up: a bad value stops the server (exit 2) with one
 * stderr line naming the variable, the value and the accepted values; nothing reaches stdout (the
 * protocol). Good values, and empty ones (= unset), start it.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENVIRONMENT, helpText, settingProblems } from "../../src/config.ts";
import { tools } from "../../src/catalog.ts";
import { connectStdio, SERVER_ENTRY } from "../e2e/client.ts";

const TOOL_NAMES = tools.map((tool) => tool.name);

let dir = "";
let file = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tui-tester-settings-"));
  file = join(dir, "a-file");
  await Bun.write(file, "not a directory");
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Per variable: values that must be refused, and a non-default value that must be accepted. */
const CASES: Record<string, { bad: () => string[]; good: () => string }> = {
  TUI_TESTER_MAX_SESSIONS: { bad: () => ["0", "-1", "abc", "1.5", "1e3", " 4"], good: () => "3" },
  TUI_TESTER_MAX_MONITORS: { bad: () => ["0", "many"], good: () => "2" },
  TUI_TESTER_SCREEN_DETAIL: { bad: () => ["bogus", "FULL"], good: () => "diff" },
  TUI_TESTER_RAW_BUFFER_BYTES: { bad: () => ["0", "1MiB"], good: () => "65536" },
  TUI_TESTER_SCROLLBACK: { bad: () => ["-5", "lots"], good: () => "500" },
  TUI_TESTER_KILL_GRACE_MS: { bad: () => ["0", "2s"], good: () => "500" },
  TUI_TESTER_MAX_EXITED_KEPT: { bad: () => ["0", "99999999999999999999"], good: () => "8" },
  TUI_TESTER_THEME: {
    bad: () => ["dark", "[]", '{"background":"white"}', '{"bg":"#000000"}', '{"ansi":["#000000",1]}'],
    good: () => '{"background":"#ffffff","foreground":"#000000"}',
  },
  TUI_TESTER_PTY: { bad: () => ["nonsense", "auto"], good: () => "bun-pty" },
  TUI_TESTER_READY: { bad: () => ["fast", "AUTO"], good: () => "quiet" },
  TUI_TESTER_LOG: { bad: () => ["quiet", "0"], good: () => "silent" },
  TUI_TESTER_MAX_REPLY_BYTES: { bad: () => ["0", "big"], good: () => "200000" },
  TUI_TESTER_OUTPUT_DIR: { bad: () => [file], good: () => join(dir, "out") },
  TUI_TESTER_CONTENT: { bad: () => ["xml"], good: () => "json" },
  TUI_TESTER_OUTPUT: { bad: () => ["json", "TEXT"], good: () => "structured" },
  // an unknown name, a name and a word for a set in one list, a name with a space
  TUI_TESTER_TOOLS: { bad: () => ["bogus", "core,send_keys", "send keys"], good: () => "core" },
  TUI_TESTER_TOOLS_DENY: { bad: () => ["screenshots", "core"], good: () => "screenshot,web_viewer" },
  TUI_TESTER_RECORD_DIR: { bad: () => [join(dir, "missing"), file], good: () => dir },
  TUI_TESTER_FONTS: {
    bad: () => [join(dir, "missing.ttf"), file],
    good: () => Bun.resolveSync("dejavu-fonts-ttf/ttf/DejaVuSans.ttf", import.meta.dir),
  },
  TUI_TESTER_WEB_PORT: { bad: () => ["65536", "-1", "http"], good: () => "0" },
};

function start(env: Record<string, string>) {
  const result = Bun.spawnSync([process.execPath, SERVER_ENTRY], {
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, ...env },
  });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

test("every variable in the ENVIRONMENT table has test cases here", () => {
  expect(Object.keys(CASES).sort()).toEqual(ENVIRONMENT.map((e) => e.name).sort());
});

test("--help lists every variable's accepted values", () => {
  for (const e of ENVIRONMENT) expect(helpText()).toContain(`Accepted: ${e.accepted}.`);
});

describe.each(ENVIRONMENT.map((e) => e.name))("%s", (name) => {
  const setting = ENVIRONMENT.find((e) => e.name === name)!;

  test("each bad value is one problem naming the variable, the value and the accepted values", () => {
    for (const value of CASES[name]!.bad()) {
      const problems = settingProblems({ [name]: value }, TOOL_NAMES);
      expect(problems, value).toHaveLength(1);
      expect(problems[0]).toStartWith(`${name}=${JSON.stringify(value)}: `);
      expect(problems[0]).toContain(`Accepted: ${setting.accepted}.`);
    }
  });

  test("a good value and an empty one are accepted", () => {
    expect(settingProblems({ [name]: CASES[name]!.good() }, TOOL_NAMES)).toEqual([]);
    expect(settingProblems({ [name]: "" }, TOOL_NAMES)).toEqual([]);
  });

  test("the server refuses to start on the first bad value: exit 2, the problem on stderr, nothing on stdout", () => {
    const value = CASES[name]!.bad()[0]!;
    const { code, stdout, stderr } = start({
      [name]: value,
      TUI_TESTER_LOG: name === "TUI_TESTER_LOG" ? value : "silent",
    });
    expect({ code, stdout }).toEqual({ code: 2, stdout: "" });
    expect(stderr).toContain(`${name}=${JSON.stringify(value)}: `);
    expect(stderr).toContain(`Accepted: ${setting.accepted}.`);
  });
});

test("several bad values are all reported at once", () => {
  const { code, stderr } = start({
    TUI_TESTER_SCREEN_DETAIL: "bogus",
    TUI_TESTER_MAX_SESSIONS: "0",
    TUI_TESTER_LOG: "silent",
  });
  expect(code).toBe(2);
  expect(stderr).toContain('TUI_TESTER_SCREEN_DETAIL="bogus"');
  expect(stderr).toContain('TUI_TESTER_MAX_SESSIONS="0"');
});

test("an unknown tool name is refused at start-up with the valid names", () => {
  const { code, stderr } = start({ TUI_TESTER_TOOLS: "send_keys,snapshots", TUI_TESTER_LOG: "silent" });
  expect(code).toBe(2);
  expect(stderr).toContain('unknown tool "snapshots"');
  for (const name of TOOL_NAMES) expect(stderr).toContain(name);
});

test("a long bad value is cut in the message", () => {
  const [problem] = settingProblems({ TUI_TESTER_CONTENT: "x".repeat(5000) });
  expect(problem!.length).toBeLessThan(600);
});

test("with every variable set to a good non-default value the server starts and runs a session", async () => {
  const env = Object.fromEntries(Object.entries(CASES).map(([name, c]) => [name, c.good()]));
  await using c = await connectStdio({ env });
  const started = await c.ok("start_session", {
    command: "bash",
    args: ["--norc", "--noprofile", "-c", "echo settings-ok; sleep 30"],
  });
  const waited = await c.call("wait_for_text", {
    sessionId: started.sessionId,
    pattern: "settings-ok",
    timeoutMs: 10_000,
  });
  expect(waited.isError).toBe(false);
  await c.ok("stop_session", { sessionId: started.sessionId, signal: "SIGKILL" });
});
