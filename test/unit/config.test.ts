/** Settings are parsed once, in config.ts: every variable lands in its Config field, bad values keep the default. */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, relative } from "node:path";
import {
  CORE_TOOLS,
  DEFAULT_CONFIG,
  DERIVED_KEYS,
  ENVIRONMENT,
  parseConfig,
  REPLY_BYTES,
  SETTINGS,
} from "../../src/config.ts";

const SRC = join(import.meta.dir, "..", "..", "src");

test("no variables: the defaults, which are what --help and the README say", () => {
  expect(parseConfig({})).toEqual({ ...DEFAULT_CONFIG });
  for (const setting of ENVIRONMENT.filter((s) => /^[0-9]+$/.test(s.default))) {
    expect(parseConfig({ [setting.name]: setting.default })).toEqual({ ...DEFAULT_CONFIG });
  }
});

test("every variable sets its field", () => {
  const dir = mkdtempSync(join(tmpdir(), "config-test-"));
  for (const font of ["a.ttf", "b.otf"]) writeFileSync(join(dir, font), ""); // TUI_TESTER_FONTS needs existing files
  try {
    const config = parseConfig({
      TUI_TESTER_MAX_SESSIONS: "3",
      TUI_TESTER_MAX_MONITORS: "2",
      TUI_TESTER_SCREEN_DETAIL: "diff",
      TUI_TESTER_RAW_BUFFER_BYTES: "4096",
      TUI_TESTER_SCROLLBACK: "500",
      TUI_TESTER_KILL_GRACE_MS: "300",
      TUI_TESTER_MAX_EXITED_KEPT: "5",
      TUI_TESTER_THEME: '{"background":"#ffffff"}',
      TUI_TESTER_PTY: "bun-pty",
      TUI_TESTER_READY: "quiet",
      TUI_TESTER_LOG: "silent",
      TUI_TESTER_MAX_REPLY_BYTES: "9999",
      TUI_TESTER_OUTPUT_DIR: join(dir, "out"),
      TUI_TESTER_CONTENT: "json",
      TUI_TESTER_OUTPUT: "structured",
      TUI_TESTER_TOOLS: "core",
      TUI_TESTER_TOOLS_DENY: "run_script, list_sessions",
      TUI_TESTER_RECORD_DIR: dir,
      TUI_TESTER_WEB_PORT: "8123",
      TUI_TESTER_FONTS: [join(dir, "a.ttf"), join(dir, "b.otf")].join(delimiter),
    });
    expect(config).toEqual({
      version: DEFAULT_CONFIG.version,
      maxSessions: 3,
      maxMonitors: 2,
      screenDetail: "diff",
      rawBufferBytes: 4096,
      scrollback: 500,
      killGraceMs: 300,
      maxExitedKept: 5,
      theme: { background: "#ffffff" },
      pty: "bun-pty",
      ready: "quiet",
      log: "silent",
      maxReplyBytes: 9999,
      outputDir: join(dir, "out"),
      content: "json",
      output: "structured",
      tools: CORE_TOOLS,
      toolsDeny: ["run_script", "list_sessions"],
      recordDir: dir,
      webPort: 8123,
      fonts: [join(dir, "a.ttf"), join(dir, "b.otf")],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("empty and invalid values keep the default (or the caller's base)", () => {
  const bad = {
    TUI_TESTER_MAX_SESSIONS: "0",
    TUI_TESTER_SCREEN_DETAIL: "",
    TUI_TESTER_THEME: "{",
    TUI_TESTER_WEB_PORT: "70000",
  };
  expect(parseConfig(bad)).toEqual({ ...DEFAULT_CONFIG });
  expect(parseConfig({ TUI_TESTER_LOG: "" }, { log: "silent" }).log).toBe("silent");
  expect(parseConfig({ TUI_TESTER_LOG: "on" }, { log: "silent" }).log).toBe("on");
});

test("the reply cap's default follows the output mode; TUI_TESTER_MAX_REPLY_BYTES overrides it in both", () => {
  expect(parseConfig({}).maxReplyBytes).toBe(16 * 1024);
  expect(parseConfig({ TUI_TESTER_OUTPUT: "structured" }).maxReplyBytes).toBe(REPLY_BYTES.structured);
  expect(REPLY_BYTES.structured).toBe(1024 * 1024);
  expect(parseConfig({ TUI_TESTER_OUTPUT: "structured", TUI_TESTER_MAX_REPLY_BYTES: "5000" }).maxReplyBytes).toBe(5000);
  expect(parseConfig({ TUI_TESTER_MAX_REPLY_BYTES: "99999" }).maxReplyBytes).toBe(99999);
});

test("TUI_TESTER_TOOLS: all, core or names; a list is trimmed", () => {
  expect(parseConfig({ TUI_TESTER_TOOLS: "all" }).tools).toBe("all");
  expect(parseConfig({ TUI_TESTER_TOOLS: "send_keys, get_text" }).tools).toEqual(["send_keys", "get_text"]);
});

test("relative directories are resolved once, against the start-up cwd", () => {
  expect(parseConfig({ TUI_TESTER_OUTPUT_DIR: "out" }).outputDir).toBe(join(process.cwd(), "out"));
});

/** Read where they act, not server settings: the bun:test matchers' `-u` switch, and the watchdog's owner mark. */
const NOT_SETTINGS = /TUI_TESTER_(UPDATE_SNAPSHOTS|OWNER)\b/g;

test("no file in src/ but config.ts reads a TUI_TESTER_* setting", async () => {
  const readers: string[] = [];
  for await (const path of new Glob("**/*.ts").scan(SRC)) {
    const source = (await Bun.file(join(SRC, path)).text()).replace(NOT_SETTINGS, "");
    if (/(process\.env|Bun\.env|env)(\.TUI_TESTER_|\[["'`]TUI_TESTER_)/.test(source))
      readers.push(relative(SRC, join(SRC, path)));
  }
  expect(readers).toEqual([]);
});

test("every Config key is one entry of the settings table or derived, and every variable is named once", () => {
  const keys = Object.keys(DEFAULT_CONFIG).sort();
  expect(keys).toEqual([...Object.keys(SETTINGS), ...DERIVED_KEYS].sort());
  expect(Object.keys(SETTINGS).filter((key) => (DERIVED_KEYS as readonly string[]).includes(key))).toEqual([]);
  const names = ENVIRONMENT.map((e) => e.name);
  expect(new Set(names).size).toBe(names.length);
});

test("the config sources write each setting once: no second list of fields, defaults or variables", async () => {
  const files = ["config.ts", ...[...new Glob("config/**/*.ts").scanSync(SRC)]];
  const source = (await Promise.all(files.map((f) => Bun.file(join(SRC, f)).text()))).join("\n");
  for (const [key, setting] of Object.entries(SETTINGS)) {
    expect(source.match(new RegExp(`^\\s*${key}\\??:`, "gm")) ?? [], key).toHaveLength(1);
    expect(source.split(`"${setting.name}"`).length - 1, setting.name).toBe(1);
  }
});
