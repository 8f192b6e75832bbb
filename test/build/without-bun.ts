/** A PATH with every program of this one except Bun: how a machine without Bun looks to a child process. */
import { readdirSync, statSync, symlinkSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { delimiter, join } from "node:path";

const BUN_NAMES = new Set(["bun", "bunx", "bun.exe", "bunx.exe"]);

/** Fills `dir` with links to the first program of each name on PATH, Bun's left out; returns the new PATH. */
export async function pathWithoutBun(dir: string, path = process.env.PATH ?? ""): Promise<string> {
  await mkdir(dir, { recursive: true });
  const seen = new Set<string>();
  for (const from of path.split(delimiter)) {
    let names: string[];
    try {
      names = readdirSync(from);
    } catch {
      continue;
    }
    for (const name of names) {
      if (seen.has(name) || BUN_NAMES.has(name)) continue;
      const target = join(from, name);
      try {
        if (!statSync(target).isFile()) continue;
      } catch {
        continue;
      }
      seen.add(name);
      symlinkSync(target, join(dir, name));
    }
  }
  return dir;
}

/** process.env without what would lead a child to Bun anyway: PATH entries, and bunx's npm_* variables. */
export function envWithoutBun(path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_|^BUN_INSTALL$/i.test(k)) env[k] = v;
  env.PATH = path;
  return env;
}
