/** PATHs missing a toolchain: how a machine without Bun (or without Node.js) looks to a child process. */
import { readdirSync, statSync, symlinkSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { delimiter, join } from "node:path";

export const BUN_PROGRAMS = ["bun", "bunx"];
export const NODE_PROGRAMS = ["node", "nodejs", "npm", "npx", "corepack", "yarn", "pnpm"];

/** Fills `dir` with links to the first program of each name on PATH, except `left out`; returns `dir` for PATH. */
export async function pathWithout(dir: string, leftOut: string[], path = process.env.PATH ?? ""): Promise<string> {
  await mkdir(dir, { recursive: true });
  const seen = new Set(leftOut.flatMap((name) => [name, `${name}.exe`, `${name}.cmd`]));
  for (const from of path.split(delimiter)) {
    let names: string[];
    try {
      names = readdirSync(from);
    } catch {
      continue;
    }
    for (const name of names) {
      if (seen.has(name)) continue;
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

/**
 * process.env with PATH replaced and without what would lead a child to Bun or a global install
 * anyway: bunx's and npm's npm_* variables, BUN_INSTALL.
 */
export function envWithPath(path: string, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^npm_|^BUN_INSTALL$/i.test(k)) env[k] = v;
  return { ...env, PATH: path, ...extra };
}
