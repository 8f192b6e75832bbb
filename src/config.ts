/** Command-line flags and environment variables, documented once for --help and the README. */
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;

export const ENVIRONMENT: { name: string; default: string; meaning: string }[] = [
  { name: "TUI_TESTER_MAX_SESSIONS", default: "32", meaning: "Maximum concurrent running sessions." },
  { name: "TUI_TESTER_MAX_MONITORS", default: "16", meaning: "Maximum concurrent monitors." },
  { name: "TUI_TESTER_SCREEN_DETAIL", default: "full", meaning: "Default screenDetail of input tools: full or diff." },
  { name: "TUI_TESTER_RAW_BUFFER_BYTES", default: "1048576", meaning: "Raw output kept per session, in bytes." },
  { name: "TUI_TESTER_SCROLLBACK", default: "10000", meaning: "Emulator scrollback lines per session." },
  { name: "TUI_TESTER_KILL_GRACE_MS", default: "2000", meaning: "stop_session wait before SIGKILL." },
  { name: "TUI_TESTER_MAX_EXITED_KEPT", default: "64", meaning: "Exited sessions kept readable before pruning." },
  { name: "TUI_TESTER_THEME", default: "xterm colours on black", meaning: "JSON {foreground, background, cursor, ansi[16]} (\"#rrggbb\") the app is told via OSC 10/11/12/4." },
  { name: "TUI_TESTER_PTY", default: "auto", meaning: "PTY backend: bun-terminal (POSIX default) or bun-pty." },
  { name: "TUI_TESTER_OUTPUT_DIR", default: "a private temp dir", meaning: "Where screenshots and recordings go when no path is given." },
  { name: "TUI_TESTER_RECORD_DIR", default: "unset (off)", meaning: "Existing directory: record every session there as asciicast v2." },
  { name: "TUI_TESTER_WEB_PORT", default: "0 (random)", meaning: "Port of the web viewer on 127.0.0.1." },
  { name: "TUI_TESTER_LOG", default: "on", meaning: "Set to silent to drop the stderr log." },
];

export function helpText(): string {
  const env = ENVIRONMENT.map((e) => `  ${e.name.padEnd(28)} ${e.meaning} (default ${e.default})`).join("\n");
  return `tui-tester ${VERSION}: MCP stdio server to drive and test terminal UIs.

Usage: tui-tester [--help] [--version]
       tui-tester test [options] [paths or globs...]

With no flags it speaks MCP (JSON-RPC) on stdin/stdout; point your MCP client at it.
"tui-tester test" runs *.tui.json / *.tui.yaml test files headless (see tui-tester test --help).

Flags:
  --help, -h      Show this help and exit.
  --version, -v   Print the version and exit.

Environment:
${env}
`;
}

export function screenDetailFromEnv(value = process.env.TUI_TESTER_SCREEN_DETAIL): "full" | "diff" {
  return value === "diff" ? "diff" : "full";
}
