/** Where artifacts (recordings, screenshots) go: a caller's path against the server's cwd, or a default directory. */
import { existsSync, mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { TuiError } from "../errors.ts";

/**
 * A server's output directory: the configured one (TUI_TESTER_OUTPUT_DIR), else a private temp directory made on
 * first use.
 */
export class OutputDir {
  private made: string | undefined;

  constructor(private readonly configured: string | undefined) {}

  /** The configured directory is created when missing (main.ts asks at start-up, so the first screenshot finds it). */
  get path(): string {
    if (this.configured !== undefined) {
      if (!existsSync(this.configured)) mkdirSync(this.configured, { recursive: true });
      return this.configured;
    }
    this.made ??= mkdtempSync(join(tmpdir(), "tui-tester-"));
    return this.made;
  }
}

const shown = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** Throws a clear error unless `dir` is an existing directory. */
export function assertDirectory(dir: string, what: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `${what}: directory "${shown(dir)}" does not exist.`,
      "Create the directory first, or pass a path in an existing one (relative paths " +
        "are resolved against the server's cwd).",
    );
  }
}

/**
 * The absolute path for an artifact: `path` resolved against `cwd`, the server's (its directory must
 * exist), or `defaultName` inside `defaultDir`.
 */
export function artifactPath(
  path: string | undefined,
  defaultDir: string,
  defaultName: string,
  cwd: string,
  overwrite = false,
): string {
  const full = path === undefined ? join(defaultDir, defaultName) : resolve(cwd, path);
  assertDirectory(dirname(full), path === undefined ? "Default output" : `Path "${shown(path)}"`);
  if (!overwrite && existsSync(full)) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `"${shown(full)}" already exists; it was left as it is.`,
      "Pass overwrite: true to replace it, or choose another path.",
    );
  }
  return full;
}

/** A file-name-safe timestamp, e.g. 20260102T030405123Z. */
export function stamp(date = new Date()): string {
  return date.toISOString().replace(/[-:.]/g, "");
}
