/**
 * No double casts in src/: `as unknown as` and `as never` switch the type checker off for a value. Tool types
 * are erased once, in src/tools/define.ts (its header says how), and a private member of a library is reached
 * through one typed accessor, so neither is needed.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { Glob } from "bun";

const ROOT = join(import.meta.dir, "..", "..");

/** Files still holding one, each owned by a rewrite in progress. This list must only shrink. */
const NOT_YET_FIXED = new Set(["src/cli/load.ts", "src/tools/history-record.ts"]);

const DOUBLE_CAST = /\bas unknown as\b|\bas never\b/;

test("no `as unknown as` or `as never` in src/", async () => {
  const found: string[] = [];
  const seen = new Set<string>();
  for await (const path of new Glob("src/**/*.ts").scan(ROOT)) {
    const lines = (await Bun.file(join(ROOT, path)).text()).split("\n");
    lines.forEach((line, i) => {
      if (!DOUBLE_CAST.test(line)) return;
      seen.add(path);
      if (!NOT_YET_FIXED.has(path)) found.push(`${path}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
  // an allowlisted file that no longer has one leaves the list
  expect([...NOT_YET_FIXED].filter((path) => !seen.has(path))).toEqual([]);
});
