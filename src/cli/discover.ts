/** Which test files a `tui-tester test` run covers: files, directories and globs from the command line. */
import { readdir, stat } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { Glob } from "bun";
import { UsageError } from "./args.ts";

const TEST_FILE = new Glob("*.tui.{json,yaml,yml}");
/** Never descended into: dependencies, VCS data, goldens. */
const SKIPPED_DIRS = new Set(["node_modules", "__snapshots__"]);
const isGlob = (s: string) => /[*?[\]{}]/.test(s);

async function walk(dir: string, found: string[]): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)) await walk(join(dir, entry.name), found);
    } else if (entry.isFile() && TEST_FILE.match(entry.name)) {
      found.push(join(dir, entry.name));
    }
  }
}

/** Absolute paths of the test files, sorted and without duplicates. */
export async function discoverTestFiles(paths: string[], cwd = process.cwd()): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths.length > 0 ? paths : ["."]) {
    if (isGlob(path)) {
      const before = found.length;
      for await (const match of new Glob(path).scan({ cwd, onlyFiles: true, absolute: true })) {
        if (!match.split(/[\\/]/).some((part) => SKIPPED_DIRS.has(part))) found.push(match);
      }
      if (found.length === before) throw new UsageError(`No file matches the glob "${path.slice(0, 200)}".`);
      continue;
    }
    const absolute = resolve(cwd, path);
    const info = await stat(absolute).catch(() => null);
    if (info === null) throw new UsageError(`No such file or directory: "${path.slice(0, 200)}".`);
    if (info.isDirectory()) await walk(absolute, found);
    else found.push(absolute);
  }
  if (found.length === 0) {
    const where =
      paths.length > 0
        ? paths.map((p) => `"${p.slice(0, 100)}"`).join(", ")
        : relative(cwd, cwd) || "the current directory";
    throw new UsageError(`No test files (*.tui.json, *.tui.yaml) under ${where}.`);
  }
  return [...new Set(found)].sort();
}
