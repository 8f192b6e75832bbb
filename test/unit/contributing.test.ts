/**
 * CONTRIBUTING.md stays true as the code moves: every path it names exists, every `bun run` script it names
 * is in package.json, and a name it places in a file ("`INPUT_TOOLS` in `src/tools/history-record.ts`") is
 * still there.
 */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..", "..");
const guide = await Bun.file(join(ROOT, "CONTRIBUTING.md")).text();

test("the paths CONTRIBUTING.md names exist", () => {
  const paths = [...guide.matchAll(/`((?:src|test|docs|bench|scripts)\/[\w./<>-]+)`|\]\(([\w./-]+)\)/g)]
    .map((m) => (m[1] ?? m[2])!)
    .filter((path) => !path.includes("<"));
  expect(paths.length).toBeGreaterThan(10);
  expect(paths.filter((path) => !existsSync(join(ROOT, path.split(" ")[0]!)))).toEqual([]);
});

test("the scripts it names are in package.json", async () => {
  const scripts = (await Bun.file(join(ROOT, "package.json")).json()).scripts as Record<string, string>;
  const named = [...guide.matchAll(/`bun run ([\w:-]+)/g)].map((m) => m[1]!);
  expect(named).toContain("gen");
  expect(named.filter((name) => !(name in scripts))).toEqual([]);
});

test("a name it places in a file is in that file", async () => {
  const placed = [...guide.matchAll(/`(?:\.\.\.)?(\w+)`\s+(?:in|from|\()\s*`((?:src|test)\/[\w./-]+\.ts)`/g)];
  expect(placed.length).toBeGreaterThan(3);
  const missing: string[] = [];
  for (const [, name, path] of placed)
    if (!(await Bun.file(join(ROOT, path!)).text()).includes(name!)) missing.push(`${name} in ${path}`);
  expect(missing).toEqual([]);
});
