/** Linux (X11/Wayland) viewer windows: which terminal emulators to try, with what argv. */
import { realpathSync } from "node:fs";
import { basename } from "node:path";
import type { LaunchContext, LaunchPlan } from "./strategy.ts";

/** Debian's user-chosen default first, then the big desktops' terminals, then plain xterm. */
export const LINUX_TERMINALS = ["x-terminal-emulator", "gnome-terminal", "konsole", "xterm"] as const;
export type LinuxTerminal = (typeof LINUX_TERMINALS)[number];

export function displayReason(env: Record<string, string | undefined>): string | undefined {
  return env.DISPLAY || env.WAYLAND_DISPLAY ? undefined : "no display (DISPLAY/WAYLAND_DISPLAY unset)";
}

/**
 * xterm refuses window ops by default, so `CSI 8;rows;cols t` (resize to the session) would be
 * ignored. Allow them except the ones that read back or set things an app should not: 20/21
 * (report icon label/title, a classic injection vector), X properties and the selection.
 */
const XTERM_WINDOW_OPS = "*disallowedWindowOps: 20,21,SetXprop,GetSelection,SetSelection";

function xtermArgs(ctx: LaunchContext): string[] {
  return [
    "-T",
    ctx.title,
    "-geometry",
    `${ctx.cols}x${ctx.rows}`,
    "-xrm",
    XTERM_WINDOW_OPS,
    "-e",
    "/bin/sh",
    ctx.reader,
  ];
}

/** x-terminal-emulator is a Debian alternative; when it is an xterm (xterm, uxterm, lxterm) use xterm's options. */
function isXtermFamily(path: string): boolean {
  try {
    return /xterm$/.test(basename(realpathSync(path)));
  } catch {
    return false;
  }
}

/** argv for one terminal, found at `path`. Titles are always single argv entries, never parsed by a shell. */
export function linuxPlan(terminal: LinuxTerminal, path: string, ctx: LaunchContext): LaunchPlan {
  switch (terminal) {
    case "x-terminal-emulator":
      // Debian policy guarantees -T title and -e command for every x-terminal-emulator
      return {
        terminal,
        argv: [path, ...(isXtermFamily(path) ? xtermArgs(ctx) : ["-T", ctx.title, "-e", "/bin/sh", ctx.reader])],
      };
    case "gnome-terminal":
      return {
        terminal,
        argv: [path, "--title", ctx.title, `--geometry=${ctx.cols}x${ctx.rows}`, "--", "/bin/sh", ctx.reader],
      };
    case "konsole":
      // -p parses "key=value;key=value": a ';' in the title would set another profile property
      return { terminal, argv: [path, "-p", `tabtitle=${ctx.title.replace(/;/g, ",")}`, "-e", "/bin/sh", ctx.reader] };
    case "xterm":
      return { terminal, argv: [path, ...xtermArgs(ctx)] };
  }
}

/** The terminals on PATH, in preference order, or why there is nothing to try. */
export function linuxPlans(
  env: Record<string, string | undefined>,
  which: (name: string) => string | null,
): { build: (ctx: LaunchContext) => LaunchPlan[] } | { reason: string } {
  const noDisplay = displayReason(env);
  if (noDisplay !== undefined) return { reason: noDisplay };
  const found = LINUX_TERMINALS.flatMap((terminal) => {
    const path = which(terminal);
    return path === null ? [] : [{ terminal, path }];
  });
  if (found.length === 0) return { reason: `no terminal emulator found on PATH (tried ${LINUX_TERMINALS.join(", ")})` };
  return { build: (ctx) => found.map(({ terminal, path }) => linuxPlan(terminal, path, ctx)) };
}
