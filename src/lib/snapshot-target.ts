/**
 * Where toMatchScreenSnapshot keeps a golden, and whether it may write one. bun:test tells a custom
 * matcher neither the test file, nor the test's name, nor --update-snapshots (oven-sh/bun#19280),
 * so: the test file is the first stack frame outside this library; the default name is the
 * enclosing test's title read from that file; update mode is read from the command line.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";
import type { GoldenUpdate } from "./golden.ts";

const LIB_DIR = import.meta.dir + sep;

export interface CallSite {
  file: string;
  line: number;
}

/** The caller's file and line: the first frame of `stack` that is a real file outside src/lib/. */
export function callerOf(stack: string | undefined): CallSite | undefined {
  for (const line of (stack ?? "").split("\n")) {
    const found = /\(?((?:[A-Za-z]:)?[^():]+):(\d+):\d+\)?\s*$/.exec(line.trim());
    if (!found) continue;
    const file = found[1]!.replace(/^at\s+/, "");
    if (file.startsWith(LIB_DIR) || !existsSync(file)) continue;
    return { file, line: Number(found[2]) };
  }
  return undefined;
}

/** __snapshots__/<test file name>/<name>.<ext>, next to the test file (as the CLI keeps its goldens). */
export function goldenFile(site: CallSite, name: string, ext: string): string {
  return join(dirname(site.file), "__snapshots__", basename(site.file), `${name}.${ext}`);
}

const TEST_CALL = /\b(?:test|it)(?:\.\w+)*\(\s*(["'`])((?:\\.|(?!\1).)*)\1/;

/**
 * The title of the test around `site` as a file name ("F2 opens Setup" -> "F2-opens-Setup"), with
 * -2, -3... for the second and later snapshots in the same test. Undefined when no test call is found.
 */
export function defaultName(site: CallSite): string | undefined {
  const lines = readFileSync(site.file, "utf8").split("\n").slice(0, site.line);
  let earlier = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const title = TEST_CALL.exec(lines[i]!)?.[2];
    if (title === undefined) {
      if (i < lines.length - 1) earlier += lines[i]!.split("toMatchScreenSnapshot(").length - 1;
      continue;
    }
    const slug =
      title
        .replace(/[^A-Za-z0-9._-]+/g, "-")
        .replace(/^[-.]+|-+$/g, "")
        .slice(0, 80) || "snapshot";
    return earlier === 0 ? slug : `${slug}-${earlier + 1}`;
  }
  return undefined;
}

let cached: string[] | undefined;

/** This process's real command line (bun test rewrites process.argv to the test file). */
function commandLine(): string[] {
  if (cached) return cached;
  try {
    cached = readFileSync("/proc/self/cmdline", "utf8").split("\0");
  } catch {
    const ps = spawnSync("ps", ["-o", "args=", "-p", String(process.pid)], { encoding: "utf8" });
    cached = (ps.stdout ?? "").trim().split(/\s+/);
  }
  return cached;
}

/**
 * "all" under `bun test -u` / `--update-snapshots`; otherwise "missing", except in CI (CI set),
 * where, as with bun's own snapshots, a missing golden is a failure.
 */
export function updateMode(env: Record<string, string | undefined> = process.env): GoldenUpdate {
  const args = commandLine();
  if (args.includes("-u") || args.includes("--update-snapshots")) return "all";
  const ci = env.CI;
  return ci !== undefined && ci !== "" && ci !== "0" && ci !== "false" ? "none" : "missing";
}
