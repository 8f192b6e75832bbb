/** Which viewer window to launch on this platform, or a sentence saying why there will be none. */
import { linuxPlans } from "./linux.ts";
import { macosPlan } from "./macos.ts";
import { substitutePlaceholders, type ViewerCommand } from "./quote.ts";

export interface LaunchContext {
  fifo: string;
  /** Script that puts the window's tty in pass-through mode and cats the FIFO. */
  reader: string;
  title: string;
  cols: number;
  rows: number;
}

export interface LaunchPlan {
  /** Shown to the agent as `viewer.terminal`. */
  terminal: string;
  /** Exec'd directly, never through a shell. */
  argv: string[];
  /** A command that closes the window, given what the launcher printed (Terminal.app's window id). */
  closeArgv?: (stdout: string) => string[] | undefined;
}

export type Strategy = { build: (ctx: LaunchContext) => LaunchPlan[] } | { reason: string };

export interface StrategyInput {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  viewerCommand?: ViewerCommand;
  which?: (name: string) => string | null;
}

export function chooseStrategy({ platform, env, viewerCommand, which }: StrategyInput): Strategy {
  // FIFOs (mkfifo) exist on every POSIX system but not on Windows, custom command or not
  if (platform === "win32") return { reason: `viewer windows are not supported on ${platform}` };
  const lookup = which ?? ((name: string) => Bun.which(name, { PATH: env.PATH ?? "" }));
  if (viewerCommand !== undefined) {
    const { command, args } = viewerCommand;
    const path = command.includes("/") ? command : lookup(command);
    if (command.trim() === "" || path === null)
      return { reason: `viewerCommand.command "${command}" not found on PATH` };
    return { build: (ctx) => [{ terminal: command, argv: [path, ...substitutePlaceholders(args, ctx)] }] };
  }
  if (platform === "darwin") {
    const osascript = lookup("osascript");
    if (osascript === null) return { reason: "osascript not found on PATH (needed to open Terminal.app)" };
    return { build: (ctx) => [macosPlan(osascript, ctx)] };
  }
  if (platform === "linux") return linuxPlans(env, lookup);
  return { reason: `viewer windows are not supported on ${platform}` };
}
