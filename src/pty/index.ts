/** Backend selection and command resolution: the only entry other layers import from pty/. */
import { existsSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { TuiError } from "../errors.ts";
import { bunTerminalAvailable, bunTerminalBackend } from "./bun-terminal.ts";
import { loadBunPtyBackend } from "./bun-pty.ts";
import type { PtyBackend } from "./types.ts";

export type { PtyBackend, PtyExit, PtyProcess, PtySpawnOptions } from "./types.ts";
export { bytesRead, descendants } from "./process-tree.ts";
export { deliverSignal, processRunning } from "./signal.ts";
export { SlaveWriter } from "./slave-write.ts";
export { OWNER_VARIABLE, startWatchdog } from "./watchdog.ts";

let cached: Promise<PtyBackend> | undefined;

/**
 * `name` (the TUI_TESTER_PTY setting) picks the backend; the default is Bun's built-in terminal where
 * it exists (POSIX), because it reports real signals and raw bytes, else bun-pty (Windows).
 */
export function selectBackend(name?: string): Promise<PtyBackend> {
  if (name === undefined || name === "")
    return (cached ??= bunTerminalAvailable() ? Promise.resolve(bunTerminalBackend) : loadBunPtyBackend());
  if (name === "bun-terminal") {
    if (!bunTerminalAvailable())
      throw new TuiError(
        "INVALID_ARGUMENT",
        "TUI_TESTER_PTY=bun-terminal needs Bun.Terminal (Bun >= 1.3.5 on macOS/Linux).",
        "Unset TUI_TESTER_PTY or set it to bun-pty.",
      );
    return Promise.resolve(bunTerminalBackend);
  }
  if (name === "bun-pty") return loadBunPtyBackend();
  throw new TuiError(
    "INVALID_ARGUMENT",
    `Unknown PTY backend "${name}" in TUI_TESTER_PTY.`,
    "Use bun-terminal or bun-pty.",
  );
}

/** Validate cwd and find the executable now, so a typo is an error at start time, not exit code 127 later. */
export function resolveCommand(command: string, cwd: string, env: Record<string, string>): string {
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) {
    throw new TuiError(
      "SPAWN_FAILED",
      `Working directory "${cwd}" does not exist or is not a directory.`,
      "Pass an existing absolute path as cwd, or omit it to use the server's cwd.",
    );
  }
  if (command.includes("/") || (process.platform === "win32" && command.includes("\\"))) {
    const path = isAbsolute(command) ? command : resolve(cwd, command);
    if (!existsSync(path))
      throw new TuiError(
        "SPAWN_FAILED",
        `Command "${command}" not found at ${path}.`,
        "Check the path, or pass a program name found on PATH.",
      );
    return path;
  }
  const found = Bun.which(command, { PATH: env.PATH ?? env.Path ?? process.env.PATH ?? "", cwd });
  if (found === null) {
    throw new TuiError(
      "SPAWN_FAILED",
      `Command "${command}" was not found on PATH.`,
      "Install it, pass an absolute path, or set env.PATH. To run a shell line, use " +
        'command "bash" with args ["-c", "..."].',
    );
  }
  return found;
}
