/** Viewer command building: titles, placeholders, quoting, strategy choice. No windows are opened. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { linuxPlan } from "../../src/viewer/linux.ts";
import { terminalAppScript } from "../../src/viewer/macos.ts";
import {
  appleScriptString,
  MAX_TITLE_LENGTH,
  sanitizeTitle,
  shellQuote,
  substitutePlaceholders,
  viewerTitle,
} from "../../src/viewer/quote.ts";
import { chooseStrategy, type LaunchContext, type LaunchPlan } from "../../src/viewer/strategy.ts";

const HOSTILE = [
  `x"; do shell script "touch /tmp/pwned`,
  "$(touch /tmp/pwned)",
  "'; touch /tmp/pwned; '",
  "`touch /tmp/pwned`",
  'a\\"b\\',
  "{fifo}",
];
const ctx = (title = "tui-tester: t"): LaunchContext => ({
  fifo: "/tmp/d/screen.fifo",
  reader: "/tmp/d/reader.sh",
  title,
  cols: 100,
  rows: 30,
});
const none = () => null;

/** Parse the AppleScript string literal starting at `s[start]`; returns its value and the index after it. */
function parseAppleScriptLiteral(s: string, start: number): { value: string; end: number } {
  expect(s[start]).toBe('"');
  let value = "";
  for (let i = start + 1; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\") value += s[++i]!;
    else if (c === '"') return { value, end: i + 1 };
    else value += c;
  }
  throw new Error(`unterminated literal in ${s}`);
}

describe("titles", () => {
  test("control characters, escapes and bidi overrides are removed", () => {
    expect(sanitizeTitle("a\x1b]0;evil\x07b\nc\td\u202ee\x9b")).toBe("a ]0;evil b c d e");
  });
  test("length is limited", () => {
    const title = sanitizeTitle("x".repeat(500));
    expect([...title].length).toBe(MAX_TITLE_LENGTH);
    expect(title.endsWith("…")).toBe(true);
  });
  test("name or id after the fixed prefix", () => {
    expect(viewerTitle({ id: "tui-1", name: "demo" })).toBe("tui-tester: demo");
    expect(viewerTitle({ id: "tui-1", name: undefined })).toBe("tui-tester: tui-1");
    expect(viewerTitle({ id: "tui-1", name: "  " })).toBe("tui-tester: tui-1");
    expect(viewerTitle({ id: "tui-1", name: "-e sh\n" })).toBe("tui-tester: -e sh");
  });
});

describe("placeholders", () => {
  test("every occurrence in every arg, other braces untouched", () => {
    expect(
      substitutePlaceholders(["--title={title}", "cat '{fifo}' {fifo}", "{other}", "{ fifo}"], {
        fifo: "/p",
        title: "T",
      }),
    ).toEqual(["--title=T", "cat '/p' /p", "{other}", "{ fifo}"]);
  });
  test("single pass: a title containing {fifo} stays literal", () => {
    expect(substitutePlaceholders(["{title}|{fifo}"], { fifo: "/p", title: "{fifo}$(x)" })).toEqual(["{fifo}$(x)|/p"]);
  });
  test("replacement patterns like $& in values are not interpreted", () => {
    expect(substitutePlaceholders(["{title}"], { fifo: "/p", title: "$&$1$$" })).toEqual(["$&$1$$"]);
  });
});

describe("shell quoting", () => {
  test.each(HOSTILE)("%p reaches a real sh as one literal word", (value) => {
    const result = Bun.spawnSync(["sh", "-c", `printf %s ${shellQuote(value)}`]);
    expect(result.stdout.toString()).toBe(value);
  });
});

describe("AppleScript for Terminal.app", () => {
  test.each(HOSTILE)("literal of %p round-trips", (value) => {
    const literal = appleScriptString(value);
    expect(parseAppleScriptLiteral(literal, 0)).toEqual({ value, end: literal.length });
  });

  test.each(HOSTILE)("hostile title %p stays inside its literal", (name) => {
    const title = viewerTitle({ id: "x", name });
    const lines = terminalAppScript(ctx(title));
    const titleLine = lines.find((l) => l.startsWith("set custom title of t to "))!;
    const parsed = parseAppleScriptLiteral(titleLine, "set custom title of t to ".length);
    expect(parsed.value).toBe(title);
    expect(parsed.end).toBe(titleLine.length); // nothing after the literal: no statement was smuggled in
    // the title appears nowhere else
    expect(lines.filter((l) => l.includes(name.slice(0, 4))).length).toBeLessThanOrEqual(1);
  });

  test("the do script command is inert for a hostile reader path, checked with a real shell", () => {
    const dir = mkdtempSync(join(tmpdir(), "viewer-as-"));
    try {
      const pwned = join(dir, "pwned");
      // no "/" possible in a file name: the injected commands touch "pwned" relative to cwd = dir
      const reader = join(dir, `x'; touch pwned; '$(touch pwned)"\`touch pwned\`.sh`);
      writeFileSync(reader, `printf ran > ${shellQuote(join(dir, "ran"))}\n`);
      const lines = terminalAppScript({ ...ctx(), reader });
      const doLine = lines.find((l) => l.startsWith("set t to do script "))!;
      const parsed = parseAppleScriptLiteral(doLine, "set t to do script ".length);
      expect(parsed.end).toBe(doLine.length);
      expect(parsed.value.endsWith("; exit")).toBe(true);
      // run what Terminal.app would type into its shell, minus the trailing exit
      Bun.spawnSync(["sh", "-c", parsed.value.slice(0, -"; exit".length)], { cwd: dir });
      expect(existsSync(join(dir, "ran"))).toBe(true);
      expect(existsSync(pwned)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("script shape", () => {
    const lines = terminalAppScript(ctx());
    expect(lines[0]).toBe('tell application "Terminal"');
    expect(lines.at(-1)).toBe("end tell");
    expect(lines).toContain("return id of front window");
  });
});

describe("strategy", () => {
  const plans = (s: ReturnType<typeof chooseStrategy>, c = ctx()): LaunchPlan[] => {
    if ("reason" in s) throw new Error(s.reason);
    return s.build(c);
  };

  test("Linux without a display says so", () => {
    expect(chooseStrategy({ platform: "linux", env: { PATH: "/usr/bin" }, which: () => "/usr/bin/xterm" })).toEqual({
      reason: "no display (DISPLAY/WAYLAND_DISPLAY unset)",
    });
    expect(chooseStrategy({ platform: "linux", env: { DISPLAY: "" }, which: () => "/usr/bin/xterm" })).toEqual({
      reason: "no display (DISPLAY/WAYLAND_DISPLAY unset)",
    });
  });
  test("Linux with a display but no terminal lists what was tried", () => {
    expect(chooseStrategy({ platform: "linux", env: { WAYLAND_DISPLAY: "wayland-0" }, which: none })).toEqual({
      reason: "no terminal emulator found on PATH (tried x-terminal-emulator, gnome-terminal, konsole, xterm)",
    });
  });
  test("unsupported platforms", () => {
    expect(chooseStrategy({ platform: "win32", env: {} })).toEqual({
      reason: "viewer windows are not supported on win32",
    });
    expect(chooseStrategy({ platform: "win32", env: {}, viewerCommand: { command: "cmd", args: [] } })).toEqual({
      reason: "viewer windows are not supported on win32",
    });
    expect(chooseStrategy({ platform: "freebsd", env: { DISPLAY: ":0" }, which: () => "/x" })).toEqual({
      reason: "viewer windows are not supported on freebsd",
    });
  });
  test("macOS needs osascript", () => {
    expect(chooseStrategy({ platform: "darwin", env: {}, which: none })).toEqual({
      reason: "osascript not found on PATH (needed to open Terminal.app)",
    });
    const [plan] = plans(chooseStrategy({ platform: "darwin", env: {}, which: (n) => `/usr/bin/${n}` }));
    expect(plan!.terminal).toBe("Terminal.app");
    expect(plan!.argv[0]).toBe("/usr/bin/osascript");
    expect(plan!.closeArgv?.("4242\n")).toEqual([
      "/usr/bin/osascript",
      "-e",
      'tell application "Terminal" to close (every window whose id is 4242)',
    ]);
    expect(plan!.closeArgv?.('1 ) & (do shell script "x"')).toBeUndefined();
  });
  test("Linux tries the terminals in order, only those on PATH", () => {
    const found = new Set(["gnome-terminal", "xterm"]);
    const list = plans(
      chooseStrategy({ platform: "linux", env: { DISPLAY: ":0" }, which: (n) => (found.has(n) ? `/opt/${n}` : null) }),
    );
    expect(list.map((p) => p.terminal)).toEqual(["gnome-terminal", "xterm"]);
    expect(list[1]!.argv).toEqual([
      "/opt/xterm",
      "-T",
      "tui-tester: t",
      "-geometry",
      "100x30",
      "-xrm",
      expect.stringContaining("disallowedWindowOps"),
      "-e",
      "/bin/sh",
      "/tmp/d/reader.sh",
    ]);
    expect(list[0]!.argv).toEqual([
      "/opt/gnome-terminal",
      "--title",
      "tui-tester: t",
      "--geometry=100x30",
      "--",
      "/bin/sh",
      "/tmp/d/reader.sh",
    ]);
  });
  test("the title is always one argv entry; konsole's -p cannot be given a second property", () => {
    const title = viewerTitle({ id: "x", name: "a;Command=touch /tmp/pwned" });
    for (const terminal of ["x-terminal-emulator", "gnome-terminal", "konsole", "xterm"] as const) {
      const argv = linuxPlan(terminal, `/opt/${terminal}`, ctx(title)).argv;
      expect(argv.filter((a) => a.includes("Command=")).length).toBe(1);
      if (terminal === "konsole") expect(argv).toContain("tabtitle=tui-tester: a,Command=touch /tmp/pwned");
      else expect(argv).toContain(title);
    }
  });
  test("viewerCommand: placeholders substituted into argv, command resolved on PATH", () => {
    const name = HOSTILE[0]!;
    const title = viewerTitle({ id: "x", name });
    const [plan] = plans(
      chooseStrategy({
        platform: "linux",
        env: {},
        which: (n) => `/bin/${n}`,
        viewerCommand: { command: "kitty", args: ["--title={title}", "cat", "{fifo}"] },
      }),
      ctx(title),
    );
    expect(plan!.argv).toEqual(["/bin/kitty", `--title=${title}`, "cat", "/tmp/d/screen.fifo"]);
    expect(
      chooseStrategy({ platform: "darwin", env: {}, which: none, viewerCommand: { command: "nope", args: [] } }),
    ).toEqual({ reason: 'viewerCommand.command "nope" not found on PATH' });
  });
});
