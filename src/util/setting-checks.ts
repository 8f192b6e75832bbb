/**
 * Checks of one setting's value (the table in config/settings.ts): each returns why a value is not
 * valid, or undefined when it is. A value is never empty here: empty means unset.
 */
import { statSync } from "node:fs";
import { delimiter } from "node:path";

export const positiveInt = (value: string) =>
  /^[0-9]+$/.test(value) && Number(value) > 0 && Number.isSafeInteger(Number(value))
    ? undefined
    : "not a positive integer";
export const oneOf =
  (...choices: string[]) =>
  (value: string) =>
    choices.includes(value) ? undefined : "not an accepted value";
const COLOUR = /^#[0-9a-f]{6}$/i;

export function themeProblem(value: string): string | undefined {
  let theme: unknown;
  try {
    theme = JSON.parse(value);
  } catch {
    return "not valid JSON";
  }
  if (typeof theme !== "object" || theme === null || Array.isArray(theme)) return "not a JSON object";
  const t = theme as Record<string, unknown>;
  const unknown = Object.keys(t).filter((k) => !["foreground", "background", "cursor", "ansi"].includes(k));
  if (unknown.length > 0) return `unknown key ${JSON.stringify(unknown[0]!.slice(0, 40))}`;
  for (const key of ["foreground", "background", "cursor"])
    if (t[key] !== undefined && !COLOUR.test(String(t[key]))) return `${key} is not a "#rrggbb" colour`;
  if (
    t.ansi !== undefined &&
    !(Array.isArray(t.ansi) && t.ansi.length <= 16 && t.ansi.every((c) => COLOUR.test(String(c))))
  )
    return `ansi is not a list of up to 16 "#rrggbb" colours`;
  return undefined;
}

export function directoryProblem(mustExist: boolean) {
  return (value: string): string | undefined => {
    const stat = statSync(value, { throwIfNoEntry: false });
    if (stat === undefined) return mustExist ? "no such directory" : undefined;
    return stat.isDirectory() ? undefined : "exists and is not a directory";
  };
}

/** TUI_TESTER_FONTS: font files separated by the platform's path delimiter, each must exist. */
export function fontFilesProblem(value: string): string | undefined {
  for (const file of value.split(delimiter).filter(Boolean)) {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) return `"${file.slice(0, 100)}" is not a file`;
    if (!/\.(ttf|otf|ttc)$/i.test(file)) return `"${file.slice(0, 100)}" is not a .ttf, .otf or .ttc font`;
  }
  return undefined;
}

export const port = (value: string) =>
  /^[0-9]+$/.test(value) && Number(value) <= 65535 ? undefined : "not a port number";

/** A comma list of names, each trimmed. */
export const toolList = (value: string) => value.split(",").map((name) => name.trim());

/** A comma list of tool names: each must be one of `toolNames` (when known); an `extra` word only alone. */
export function toolListProblem(...extra: string[]) {
  return (value: string, toolNames?: readonly string[]): string | undefined => {
    const names = toolList(value);
    const bad = names.find((name) => !/^[a-z_]+$/.test(name));
    if (bad !== undefined) return `${JSON.stringify(bad.slice(0, 40))} is not a tool name`;
    if (toolNames === undefined) return undefined;
    const unknown = names.filter((name) => !toolNames.includes(name) && !(names.length === 1 && extra.includes(name)));
    if (unknown.length === 0) return undefined;
    return `unknown tool ${unknown.map((n) => JSON.stringify(n.slice(0, 40))).join(", ")} (tools: ${toolNames.join(", ")})`;
  };
}
