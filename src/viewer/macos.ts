/** macOS viewer windows: Terminal.app driven by osascript. */
import { appleScriptString, shellQuote } from "./quote.ts";
import type { LaunchContext, LaunchPlan } from "./strategy.ts";

/**
 * The AppleScript, one line per `-e`. Untrusted text reaches it only as AppleScript string
 * literals (title) and, inside the `do script` literal, as a single-quoted shell word (reader path),
 * so neither AppleScript nor the shell Terminal types the command into can see syntax in them.
 * Returns the new window's id so close can shut it even when the profile keeps exited windows.
 */
export function terminalAppScript(ctx: LaunchContext): string[] {
  const shellCommand = `/bin/sh ${shellQuote(ctx.reader)}; exit`;
  return [
    'tell application "Terminal"',
    `set t to do script ${appleScriptString(shellCommand)}`,
    `set custom title of t to ${appleScriptString(ctx.title)}`,
    "set title displays custom title of t to true",
    "activate",
    "return id of front window",
    "end tell",
  ];
}

export function macosPlan(osascript: string, ctx: LaunchContext): LaunchPlan {
  return {
    terminal: "Terminal.app",
    argv: [osascript, ...terminalAppScript(ctx).flatMap((line) => ["-e", line])],
    closeArgv: (stdout) => {
      const id = stdout.trim();
      // only a number goes back into a script
      return /^\d+$/.test(id)
        ? [osascript, "-e", `tell application "Terminal" to close (every window whose id is ${id})`]
        : undefined;
    },
  };
}
