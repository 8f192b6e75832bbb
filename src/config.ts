/**
 * Command-line flags and environment variables, documented once for --help and the README, checked
 * once at start-up (a bad value stops the server with a message instead of a silent default), and
 * parsed once into a typed Config that is passed down: nothing else in src/ reads TUI_TESTER_*.
 */
import { delimiter, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import type { TerminalTheme } from "./term/types.ts";
import {
  directoryProblem,
  fontFilesProblem,
  oneOf,
  port,
  positiveInt,
  themeProblem,
  toolList,
  toolListProblem,
} from "./util/setting-checks.ts";

export { themeProblem };

export const VERSION: string = pkg.version;

export type PtyBackendName = "bun-terminal" | "bun-pty";

/** Every setting, parsed. The server builds one at start-up and hands it to its context. */
export interface Config {
  version: string;
  maxSessions: number;
  maxMonitors: number;
  /** Default for every input tool's `screenDetail`. */
  screenDetail: "full" | "diff";
  rawBufferBytes: number;
  scrollback: number;
  killGraceMs: number;
  maxExitedKept: number;
  /** What OSC 10/11/12/4 queries are told; undefined: xterm's colours on black. */
  theme: Partial<TerminalTheme> | undefined;
  /** undefined: Bun.Terminal where it exists (POSIX), else bun-pty. */
  pty: PtyBackendName | undefined;
  /** How inputs settle: the ready oracle where /proc allows (auto), or always the quiet window. */
  ready: "auto" | "quiet";
  log: "on" | "silent";
  /** Largest reply; its default depends on `output` (REPLY_BYTES). */
  maxReplyBytes: number;
  /** text: results carry only content (the text view); structured: also structuredContent and outputSchemas. */
  output: "text" | "structured";
  /** Tools listed and callable: "all", or the names (TUI_TESTER_TOOLS, core expanded). */
  tools: "all" | readonly string[];
  /** Tools left out after `tools` (TUI_TESTER_TOOLS_DENY). */
  toolsDeny: readonly string[];
  /** Absolute; undefined: a private temp directory made on first use. */
  outputDir: string | undefined;
  content: "text" | "json";
  /** Record every session here (absolute); undefined: off. */
  recordDir: string | undefined;
  /** 0: a free port. */
  webPort: number;
  /** Extra font files for pictures (TUI_TESTER_FONTS), absolute. */
  fonts: string[];
}

/**
 * The default largest reply per output mode. Text: 16 KiB, under the smallest inline limit of the
 * clients measured (Copilot CLI cuts a result at 20 KiB of text and shows a 500-character preview),
 * with room for what a client wraps around it; images are bounded on their own. Structured: 1 MiB,
 * for programs that read the JSON.
 */
export const REPLY_BYTES = { text: 16 * 1024, structured: 1024 * 1024 } as const;

/** TUI_TESTER_TOOLS=core: a session, input, reading the screen, waiting, and scripts. */
export const CORE_TOOLS: readonly string[] = [
  "start_session",
  "stop_session",
  "list_sessions",
  "send_keys",
  "send_text",
  "get_text",
  "snapshot",
  "wait_for_text",
  "run_script",
];

export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({
  version: VERSION,
  maxSessions: 32,
  maxMonitors: 16,
  screenDetail: "full",
  rawBufferBytes: 1024 * 1024,
  scrollback: 10_000,
  killGraceMs: 2000,
  maxExitedKept: 64,
  theme: undefined,
  pty: undefined,
  ready: "auto",
  log: "on",
  maxReplyBytes: REPLY_BYTES.text,
  output: "text",
  tools: "all",
  toolsDeny: [],
  outputDir: undefined,
  content: "text",
  recordDir: undefined,
  webPort: 0,
  fonts: [],
});

export interface Setting {
  name: string;
  default: string;
  meaning: string;
  /** What a valid value looks like, as --help and the start-up error say it. */
  accepted: string;
  /**
   * Why `value` (never empty: empty means unset) is not valid, or undefined when it is. `toolNames`:
   * the catalog's tool names, for the tool-set settings (config.ts sits below the catalog).
   */
  problem(value: string, toolNames?: readonly string[]): string | undefined;
}

const INT = "a positive integer";

export const ENVIRONMENT: Setting[] = [
  {
    name: "TUI_TESTER_MAX_SESSIONS",
    default: String(DEFAULT_CONFIG.maxSessions),
    meaning: "Maximum concurrent running sessions.",
    accepted: INT,
    problem: positiveInt,
  },
  {
    name: "TUI_TESTER_MAX_MONITORS",
    default: String(DEFAULT_CONFIG.maxMonitors),
    meaning: "Maximum concurrent monitors.",
    accepted: INT,
    problem: positiveInt,
  },
  {
    name: "TUI_TESTER_SCREEN_DETAIL",
    default: DEFAULT_CONFIG.screenDetail,
    meaning: "Default screenDetail of input tools: full or diff.",
    accepted: "full, diff",
    problem: oneOf("full", "diff"),
  },
  {
    name: "TUI_TESTER_RAW_BUFFER_BYTES",
    default: String(DEFAULT_CONFIG.rawBufferBytes),
    meaning: "Raw output kept per session, in bytes.",
    accepted: INT,
    problem: positiveInt,
  },
  {
    name: "TUI_TESTER_SCROLLBACK",
    default: String(DEFAULT_CONFIG.scrollback),
    meaning: "Emulator scrollback lines per session (fewer past 279 columns: history is capped at 32 MiB).",
    accepted: INT,
    problem: positiveInt,
  },
  {
    name: "TUI_TESTER_KILL_GRACE_MS",
    default: String(DEFAULT_CONFIG.killGraceMs),
    meaning: "stop_session wait before SIGKILL.",
    accepted: INT,
    problem: positiveInt,
  },
  {
    name: "TUI_TESTER_MAX_EXITED_KEPT",
    default: String(DEFAULT_CONFIG.maxExitedKept),
    meaning: "Exited sessions kept readable before pruning.",
    accepted: INT,
    problem: positiveInt,
  },
  {
    name: "TUI_TESTER_THEME",
    default: "xterm colours on black",
    meaning: 'JSON {foreground, background, cursor, ansi[16]} ("#rrggbb") the app is told via OSC 10/11/12/4.',
    accepted:
      'a JSON object such as {"background":"#ffffff","foreground":"#000000"}, keys ' +
      'foreground, background, cursor, ansi (up to 16), colours "#rrggbb"',
    problem: themeProblem,
  },
  {
    name: "TUI_TESTER_PTY",
    default: "bun-terminal (POSIX), bun-pty (Windows)",
    meaning: "PTY backend: bun-terminal (Bun.Terminal, POSIX) or bun-pty.",
    accepted: "bun-terminal, bun-pty",
    problem: oneOf("bun-terminal", "bun-pty"),
  },
  {
    name: "TUI_TESTER_READY",
    default: DEFAULT_CONFIG.ready,
    meaning:
      "How inputs settle: auto (the ready oracle where /proc allows, " +
      "docs/ready-oracle.md) or quiet (100 ms of quiet output).",
    accepted: "auto, quiet",
    problem: oneOf("auto", "quiet"),
  },
  {
    name: "TUI_TESTER_LOG",
    default: DEFAULT_CONFIG.log,
    meaning: "Set to silent to drop the stderr log.",
    accepted: "on, silent",
    problem: oneOf("on", "silent"),
  },
  {
    name: "TUI_TESTER_MAX_REPLY_BYTES",
    default: `${REPLY_BYTES.text} (text), ${REPLY_BYTES.structured} (structured)`,
    meaning:
      "Largest tool reply (text mode: its text, images aside); a larger one goes to a file in the output " +
      "directory and the reply names it. 16 KiB keeps under Copilot CLI's 20 KiB inline limit.",
    accepted: INT,
    problem: positiveInt,
  },
  {
    name: "TUI_TESTER_OUTPUT_DIR",
    default: "a private temp dir",
    meaning: "Where oversized replies and other artifacts are written (created if missing).",
    accepted: "a directory path (created if missing)",
    problem: directoryProblem(false),
  },
  {
    name: "TUI_TESTER_OUTPUT",
    default: DEFAULT_CONFIG.output,
    meaning:
      "text: results carry only content (the text view, images, file links), tools/list no outputSchema; " +
      "what every client hands the model. structured: also structuredContent and outputSchemas, for programs.",
    accepted: "text, structured",
    problem: oneOf("text", "structured"),
  },
  {
    name: "TUI_TESTER_CONTENT",
    default: DEFAULT_CONFIG.content,
    meaning:
      "The content text: text (rendered for the model) or json (the summary and the full result JSON; " +
      "with TUI_TESTER_OUTPUT=text the only copy of the JSON).",
    accepted: "text, json",
    problem: oneOf("text", "json"),
  },
  {
    name: "TUI_TESTER_RECORD_DIR",
    default: "off",
    meaning: "Record every session as asciicast into this existing directory.",
    accepted: "an existing directory",
    problem: directoryProblem(true),
  },
  {
    name: "TUI_TESTER_FONTS",
    default: "none",
    meaning: "Extra font files for PNG pictures (CJK, emoji), tried after the bundled fonts.",
    accepted: `font files (.ttf, .otf, .ttc) separated by "${delimiter}"`,
    problem: fontFilesProblem,
  },
  {
    name: "TUI_TESTER_TOOLS",
    default: DEFAULT_CONFIG.tools as string,
    meaning: `Tools listed and callable: all, core (${CORE_TOOLS.join(", ")}), or tool names. run_script keeps every step.`,
    accepted: "all, core, or tool names separated by commas",
    problem: toolListProblem("all", "core"),
  },
  {
    name: "TUI_TESTER_TOOLS_DENY",
    default: "none",
    meaning: "Tools left out (after TUI_TESTER_TOOLS).",
    accepted: "tool names separated by commas",
    problem: toolListProblem(),
  },
  {
    name: "TUI_TESTER_WEB_PORT",
    default: "a free port (0)",
    meaning: "Port of the local web viewer.",
    accepted: "an integer from 0 to 65535",
    problem: port,
  },
];

/** One line per bad setting: variable, value, what is wrong and what is accepted. Empty when all are valid. */
export function settingProblems(
  env: Record<string, string | undefined> = process.env,
  toolNames?: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const setting of ENVIRONMENT) {
    const value = env[setting.name];
    if (value === undefined || value === "") continue;
    const problem = setting.problem(value, toolNames);
    if (problem === undefined) continue;
    const shown = value.length > 200 ? `${value.slice(0, 200)}...` : value;
    problems.push(
      `${setting.name}=${JSON.stringify(shown)}: ${problem}. Accepted: ` +
        `${setting.accepted}. Unset it for the default (${setting.default}).`,
    );
  }
  return problems;
}

export function helpText(): string {
  const env = ENVIRONMENT.map(
    (e) => `  ${e.name.padEnd(28)} ${e.meaning} (default ${e.default})\n  ${"".padEnd(28)} Accepted: ${e.accepted}.`,
  ).join("\n");
  return `tui-tester ${VERSION}: MCP stdio server to drive and test terminal UIs.

Usage: tui-tester [--help] [--version]
       tui-tester test [options] [paths or globs...]
       tui-tester gif [options] IN.cast OUT.gif
       tui-tester show-report [DIR]

With no flags it speaks MCP (JSON-RPC) on stdin/stdout; point your MCP client at it.
"tui-tester test" runs *.tui.json / *.tui.yaml test files headless (see tui-tester test --help);
"--reporter html" writes a report that "show-report" serves. "gif" draws a recording as a GIF.

Flags:
  --help, -h      Show this help and exit.
  --version, -v   Print the version and exit.

Environment (checked at start: a bad value stops the server; empty counts as unset):
${env}
`;
}

/**
 * The settings in `env` over the defaults (and over `base`, e.g. the test command's quieter log).
 * Unset, empty or invalid values keep the default: main.ts refuses to start on an invalid one
 * (settingProblems) before it parses, so only a caller that skipped that check sees the fallback.
 */
export function parseConfig(env: Record<string, string | undefined>, base: Partial<Config> = {}): Config {
  const config: Config = { ...DEFAULT_CONFIG, ...base };
  const valid = (name: string): string | undefined => {
    const value = env[name];
    if (value === undefined || value === "") return undefined;
    return ENVIRONMENT.find((s) => s.name === name)!.problem(value) === undefined ? value : undefined;
  };
  const int = (name: string, fallback: number) => {
    const value = valid(name);
    return value === undefined ? fallback : Number(value);
  };
  config.maxSessions = int("TUI_TESTER_MAX_SESSIONS", config.maxSessions);
  config.maxMonitors = int("TUI_TESTER_MAX_MONITORS", config.maxMonitors);
  config.rawBufferBytes = int("TUI_TESTER_RAW_BUFFER_BYTES", config.rawBufferBytes);
  config.scrollback = int("TUI_TESTER_SCROLLBACK", config.scrollback);
  config.killGraceMs = int("TUI_TESTER_KILL_GRACE_MS", config.killGraceMs);
  config.maxExitedKept = int("TUI_TESTER_MAX_EXITED_KEPT", config.maxExitedKept);
  config.output = (valid("TUI_TESTER_OUTPUT") as Config["output"] | undefined) ?? config.output;
  config.maxReplyBytes = int("TUI_TESTER_MAX_REPLY_BYTES", base.maxReplyBytes ?? REPLY_BYTES[config.output]);
  config.webPort = int("TUI_TESTER_WEB_PORT", config.webPort);
  config.screenDetail =
    (valid("TUI_TESTER_SCREEN_DETAIL") as Config["screenDetail"] | undefined) ?? config.screenDetail;
  config.pty = (valid("TUI_TESTER_PTY") as PtyBackendName | undefined) ?? config.pty;
  config.ready = (valid("TUI_TESTER_READY") as Config["ready"] | undefined) ?? config.ready;
  config.log = (valid("TUI_TESTER_LOG") as Config["log"] | undefined) ?? config.log;
  config.content = (valid("TUI_TESTER_CONTENT") as Config["content"] | undefined) ?? config.content;
  const allow = valid("TUI_TESTER_TOOLS");
  if (allow !== undefined) config.tools = allow === "all" ? "all" : allow === "core" ? CORE_TOOLS : toolList(allow);
  const deny = valid("TUI_TESTER_TOOLS_DENY");
  if (deny !== undefined) config.toolsDeny = toolList(deny);
  const theme = valid("TUI_TESTER_THEME");
  if (theme !== undefined) config.theme = JSON.parse(theme) as Partial<TerminalTheme>;
  const outputDir = valid("TUI_TESTER_OUTPUT_DIR");
  if (outputDir !== undefined) config.outputDir = resolve(outputDir);
  const fonts = valid("TUI_TESTER_FONTS");
  if (fonts !== undefined)
    config.fonts = fonts
      .split(delimiter)
      .filter(Boolean)
      .map((file) => resolve(file));
  const recordDir = valid("TUI_TESTER_RECORD_DIR");
  if (recordDir !== undefined) config.recordDir = resolve(recordDir);
  return config;
}
