/**
 * Every setting, written once: its variable, its typed value when unset, how a value is parsed (or why it
 * is refused), and what --help and the README say of it. config.ts derives the Config type, the defaults,
 * the start-up checks, the parser and --help from this table; scripts/tool-reference.ts the README table.
 */
import { delimiter, resolve } from "node:path";
import { DEFAULT_SCROLLBACK } from "../term/scrollback-budget.ts";
import type { TerminalTheme } from "../term/types.ts";
import {
  directoryProblem,
  fontFilesProblem,
  port,
  positiveInt,
  themeProblem,
  toolList,
  toolListProblem,
} from "../util/setting-checks.ts";

export type PtyBackendName = "bun-terminal" | "bun-pty";

/** What a value parses to: the typed value, or why it is not valid (said in the start-up error). */
export type Parsed<T> = { value: T } | { problem: string };

/**
 * The settings another setting's default depends on; they are parsed before such a default is taken.
 * (Not SettingValues: the table's own type would then refer to itself.)
 */
export type EarlierSettings = Readonly<Record<"output", keyof typeof REPLY_BYTES>>;

export interface Setting<T> {
  /** The environment variable. */
  name: string;
  /** The value when the variable is unset or empty. */
  initial: T;
  /** The default as --help, the README and the start-up error say it. */
  default: string;
  meaning: string;
  /** What a valid value looks like, as --help and the start-up error say it. */
  accepted: string;
  /**
   * `value` (never empty: empty means unset) as its typed value, or why it is not valid. `toolNames`: the
   * catalog's tool names, for the tool-set settings (config sits below the catalog; without them any
   * well-formed name passes).
   */
  parse(value: string, toolNames?: readonly string[]): Parsed<T>;
  /** A default that follows other settings, used when neither the variable nor the caller sets this one. */
  defaultFrom?(earlier: EarlierSettings): T;
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

type Doc = { name: string; meaning: string; accepted?: string; default?: string };
type Check = (value: string, toolNames?: readonly string[]) => string | undefined;

/** A parser from a check and a conversion of a value that passed it. */
const checked =
  <T>(check: Check, convert: (value: string) => T) =>
  (value: string, toolNames?: readonly string[]): Parsed<T> => {
    const problem = check(value, toolNames);
    return problem === undefined ? { value: convert(value) } : { problem };
  };

function setting<T>(initial: T, doc: Doc & { accepted: string; parse: Setting<T>["parse"] }): Setting<T> {
  return { default: String(initial), ...doc, initial };
}

const int = (initial: number, doc: Doc): Setting<number> =>
  setting(initial, { accepted: "a positive integer", ...doc, parse: checked(positiveInt, Number) });

/** One of `choices`, which are also what --help says is accepted. */
function choice<C extends string, I extends C | undefined>(
  choices: readonly C[],
  initial: I,
  doc: Doc,
): Setting<C | I> {
  return setting<C | I>(initial, {
    accepted: choices.join(", "),
    ...doc,
    parse: (value) => {
      const chosen = choices.find((c) => c === value);
      return chosen === undefined ? { problem: "not an accepted value" } : { value: chosen };
    },
  });
}

/** A directory, resolved once against the start-up cwd; `mustExist`: else it is created when first used. */
const directory = (mustExist: boolean, doc: Doc & { accepted: string }): Setting<string | undefined> =>
  setting<string | undefined>(undefined, { ...doc, parse: checked(directoryProblem(mustExist), (v) => resolve(v)) });

/** The table, in the order --help and the README list it. Each key is the Config field it sets. */
export const SETTINGS = {
  maxSessions: int(32, { name: "TUI_TESTER_MAX_SESSIONS", meaning: "Maximum concurrent running sessions." }),
  maxMonitors: int(16, { name: "TUI_TESTER_MAX_MONITORS", meaning: "Maximum concurrent monitors." }),
  /** Default for every input tool's `screenDetail`. */
  screenDetail: choice(["auto", "full", "diff"], "auto", {
    name: "TUI_TESTER_SCREEN_DETAIL",
    meaning: "Default screenDetail of input tools: auto, full or diff.",
  }),
  rawBufferBytes: int(1024 * 1024, {
    name: "TUI_TESTER_RAW_BUFFER_BYTES",
    meaning: "Raw output kept per session, in bytes.",
  }),
  scrollback: int(DEFAULT_SCROLLBACK, {
    name: "TUI_TESTER_SCROLLBACK",
    meaning: "Emulator scrollback lines per session (fewer past 279 columns: history is capped at 32 MiB).",
  }),
  killGraceMs: int(2000, { name: "TUI_TESTER_KILL_GRACE_MS", meaning: "stop_session wait before SIGKILL." }),
  maxExitedKept: int(64, {
    name: "TUI_TESTER_MAX_EXITED_KEPT",
    meaning: "Exited sessions kept readable before pruning.",
  }),
  /** What OSC 10/11/12/4 queries are told; undefined: xterm's colours on black. */
  theme: setting<Partial<TerminalTheme> | undefined>(undefined, {
    name: "TUI_TESTER_THEME",
    default: "xterm colours on black",
    meaning: 'JSON {foreground, background, cursor, ansi[16]} ("#rrggbb") the app is told via OSC 10/11/12/4.',
    accepted:
      'a JSON object such as {"background":"#ffffff","foreground":"#000000"}, keys ' +
      'foreground, background, cursor, ansi (up to 16), colours "#rrggbb"',
    // themeProblem has checked every key and colour, so the object is a partial theme
    parse: checked(themeProblem, (value) => JSON.parse(value) as Partial<TerminalTheme>),
  }),
  /** undefined: Bun.Terminal where it exists (POSIX), else bun-pty. */
  pty: choice<PtyBackendName, PtyBackendName | undefined>(["bun-terminal", "bun-pty"], undefined, {
    name: "TUI_TESTER_PTY",
    default: "bun-terminal (POSIX), bun-pty (Windows)",
    meaning: "PTY backend: bun-terminal (Bun.Terminal, POSIX) or bun-pty.",
  }),
  /** How inputs settle: the ready oracle where /proc allows (auto), or always the quiet window. */
  ready: choice(["auto", "quiet"], "auto", {
    name: "TUI_TESTER_READY",
    meaning:
      "How inputs settle: auto (the ready oracle where /proc allows, " +
      "docs/ready-oracle.md) or quiet (100 ms of quiet output).",
  }),
  log: choice(["on", "silent"], "on", { name: "TUI_TESTER_LOG", meaning: "Set to silent to drop the stderr log." }),
  /** Largest reply; its default follows `output` (REPLY_BYTES). */
  maxReplyBytes: {
    ...int(REPLY_BYTES.text, {
      name: "TUI_TESTER_MAX_REPLY_BYTES",
      default: `${REPLY_BYTES.text} (text), ${REPLY_BYTES.structured} (structured)`,
      meaning:
        "Largest tool reply (text mode: its text, images aside); a larger one goes to a file in the output " +
        "directory and the reply names it. 16 KiB keeps under Copilot CLI's 20 KiB inline limit.",
    }),
    defaultFrom: ({ output }: EarlierSettings) => REPLY_BYTES[output],
  },
  /** Absolute; undefined: a private temp directory made on first use. */
  outputDir: directory(false, {
    name: "TUI_TESTER_OUTPUT_DIR",
    default: "a private temp dir",
    meaning: "Where oversized replies and other artifacts are written (created if missing).",
    accepted: "a directory path (created if missing)",
  }),
  /** text: results carry only content (the text view); structured: also structuredContent and outputSchemas. */
  output: choice(["text", "structured"], "text", {
    name: "TUI_TESTER_OUTPUT",
    meaning:
      "text: results carry only content (the text view, images, file links), tools/list no outputSchema; " +
      "what every client hands the model. structured: also structuredContent and outputSchemas, for programs.",
  }),
  content: choice(["text", "json"], "text", {
    name: "TUI_TESTER_CONTENT",
    meaning:
      "The content text: text (rendered for the model) or json (the summary and the full result JSON; " +
      "with TUI_TESTER_OUTPUT=text the only copy of the JSON).",
  }),
  /** Record every session here (absolute); undefined: off. */
  recordDir: directory(true, {
    name: "TUI_TESTER_RECORD_DIR",
    default: "off",
    meaning: "Record every session as asciicast into this existing directory.",
    accepted: "an existing directory",
  }),
  /** Extra font files for pictures, absolute. */
  fonts: setting<string[]>([], {
    name: "TUI_TESTER_FONTS",
    default: "none",
    meaning: "Extra font files for PNG pictures (CJK, emoji), tried after the bundled fonts.",
    accepted: `font files (.ttf, .otf, .ttc) separated by "${delimiter}"`,
    parse: checked(fontFilesProblem, (value) =>
      value
        .split(delimiter)
        .filter(Boolean)
        .map((file) => resolve(file)),
    ),
  }),
  /** Tools listed and callable: "all", or the names (core expanded). */
  tools: setting<"all" | readonly string[]>("all", {
    name: "TUI_TESTER_TOOLS",
    meaning: `Tools listed and callable: all, core (${CORE_TOOLS.join(", ")}), or tool names. run_script keeps every step.`,
    accepted: "all, core, or tool names separated by commas",
    parse: checked(toolListProblem("all", "core"), (value) =>
      value === "all" ? "all" : value === "core" ? CORE_TOOLS : toolList(value),
    ),
  }),
  /** Tools left out after `tools`. */
  toolsDeny: setting<readonly string[]>([], {
    name: "TUI_TESTER_TOOLS_DENY",
    default: "none",
    meaning: "Tools left out (after TUI_TESTER_TOOLS).",
    accepted: "tool names separated by commas",
    parse: checked(toolListProblem(), toolList),
  }),
  /** 0: a free port. */
  webPort: setting(0, {
    name: "TUI_TESTER_WEB_PORT",
    default: "a free port (0)",
    meaning: "Port of the local web viewer.",
    accepted: "an integer from 0 to 65535",
    parse: checked(port, Number),
  }),
};

export type SettingKey = keyof typeof SETTINGS;

/** Every setting's typed value, keyed as the table is. */
export type SettingValues = {
  -readonly [K in SettingKey]: (typeof SETTINGS)[K] extends Setting<infer T> ? T : never;
};

/** The table seen per key, so a generic key's entry and value types go together. */
export const SETTING_TABLE: { readonly [K in SettingKey]: Setting<SettingValues[K]> } = SETTINGS;

export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];
