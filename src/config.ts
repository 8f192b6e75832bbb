/**
 * Command-line flags and environment variables, documented once for --help and the README, checked
 * once at start-up (a bad value stops the server with a message instead of a silent default), and
 * parsed once into a typed Config that is passed down: nothing else in src/ reads TUI_TESTER_*.
 * Each setting is one entry of config/settings.ts; everything here is derived from that table.
 */
import pkg from "../package.json" with { type: "json" };
import {
  SETTING_KEYS,
  SETTING_TABLE,
  SETTINGS,
  type Setting,
  type SettingKey,
  type SettingValues,
} from "./config/settings.ts";

export { themeProblem } from "./util/setting-checks.ts";
export { CORE_TOOLS, type PtyBackendName, REPLY_BYTES, type Setting, SETTINGS } from "./config/settings.ts";

export const VERSION: string = pkg.version;

/** Every setting, parsed, and the version. The server builds one at start-up and hands it to its context. */
export interface Config extends SettingValues {
  version: string;
}

/** The Config fields that are not settings: derived from elsewhere. */
export const DERIVED_KEYS = ["version"] as const satisfies readonly Exclude<keyof Config, SettingKey>[];

function initialValues(): SettingValues {
  const values: Partial<Record<SettingKey, unknown>> = {};
  for (const key of SETTING_KEYS) values[key] = SETTINGS[key].initial;
  // every key was set just above from its own entry's initial value
  return values as SettingValues;
}

export const DEFAULT_CONFIG: Readonly<Config> = Object.freeze({ version: VERSION, ...initialValues() });

/** The settings as --help and the README list them. */
export const ENVIRONMENT: readonly Setting<unknown>[] = SETTING_KEYS.map((key) => SETTINGS[key]);

/** One line per bad setting: variable, value, what is wrong and what is accepted. Empty when all are valid. */
export function settingProblems(
  env: Record<string, string | undefined> = process.env,
  toolNames?: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const setting of ENVIRONMENT) {
    const value = env[setting.name];
    if (value === undefined || value === "") continue;
    const parsed = setting.parse(value, toolNames);
    if (!("problem" in parsed)) continue;
    const shown = value.length > 200 ? `${value.slice(0, 200)}...` : value;
    problems.push(
      `${setting.name}=${JSON.stringify(shown)}: ${parsed.problem}. Accepted: ` +
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

/** Sets `key` from its variable in `env` when that is set and valid; says whether it did. */
function setFromEnv<K extends SettingKey>(values: SettingValues, key: K, env: Record<string, string | undefined>) {
  const setting = SETTING_TABLE[key];
  const value = env[setting.name];
  if (value === undefined || value === "") return false;
  const parsed = setting.parse(value);
  if ("problem" in parsed) return false;
  values[key] = parsed.value;
  return true;
}

/**
 * The settings in `env` over the defaults (and over `base`, e.g. the test command's quieter log).
 * Unset, empty or invalid values keep the default: main.ts refuses to start on an invalid one
 * (settingProblems) before it parses, so only a caller that skipped that check sees the fallback.
 */
export function parseConfig(env: Record<string, string | undefined>, base: Partial<Config> = {}): Config {
  const config: Config = { ...DEFAULT_CONFIG, ...base };
  const unset = SETTING_KEYS.filter((key) => !setFromEnv(config, key, env));
  for (const key of unset) if (base[key] === undefined) followDefault(config, key);
  return config;
}

/** A default that follows other settings (the reply cap follows the output mode), taken once those are parsed. */
function followDefault<K extends SettingKey>(config: Config, key: K) {
  const follow = SETTING_TABLE[key].defaultFrom;
  const values: SettingValues = config;
  if (follow !== undefined) values[key] = follow(config);
}
