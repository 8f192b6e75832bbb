/**
 * No double casts in src/: `as unknown as` and `as never` switch the type checker off for a value. Tool types
 * are erased once, in src/tools/define.ts (its header says how), and a private member of a library is reached
 * through one typed accessor, so neither is needed.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { Glob } from "bun";

const ROOT = join(import.meta.dir, "..", "..");

const DOUBLE_CAST = /\bas unknown as\b|\bas never\b/;

test("no `as unknown as` or `as never` in src/", async () => {
  const found: string[] = [];
  for await (const path of new Glob("src/**/*.ts").scan(ROOT)) {
    const lines = (await Bun.file(join(ROOT, path)).text()).split("\n");
    lines.forEach((line, i) => {
      if (!DOUBLE_CAST.test(line)) return;
      found.push(`${path}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});
