/**
 * `bun run gen --check` is the CI check that no generated file is stale: it passes on the repository as it is,
 * and on a copy where each generated file was edited by hand it fails naming them all; `bun run gen` then
 * rewrites them to what they were.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readBlock } from "../../bench/readme-block.ts";

const ROOT = join(import.meta.dir, "..", "..");
const GENERATED = [
  "docs/tool-reference.md",
  "schema/tui-test.schema.json",
  "bench/README.md",
  "test/e2e/__snapshots__/catalog.test.ts.snap",
];

async function run(args: string[], cwd: string) {
  const child = Bun.spawn(["bun", "run", "gen", ...args], { cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, output: stdout + stderr };
}

let copy: string;

beforeAll(async () => {
  copy = await mkdtemp(join(tmpdir(), "tui-tester-gen-"));
  // the files a clone has: tracked ones, plus new ones not ignored (so uncommitted work is checked too)
  const listed = Bun.spawnSync(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: ROOT,
    stdout: "pipe",
  });
  for (const file of listed.stdout.toString().split("\0"))
    if (file !== "" && existsSync(join(ROOT, file)))
      await cp(join(ROOT, file), join(copy, file), { recursive: true, verbatimSymlinks: true });
  await symlink(join(ROOT, "node_modules"), join(copy, "node_modules"));
});

afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
});

test("bun run gen --check passes on the repository: every generated file is current", async () => {
  const { code, output } = await run(["--check"], ROOT);
  expect(output).toContain("All generated files are current.");
  expect(code).toBe(0);
}, 120_000);

test("a hand-edited generated file fails the check by name, and bun run gen restores it", async () => {
  for (const file of GENERATED) {
    const path = join(copy, file);
    const text = await Bun.file(path).text();
    // an edit inside what the generator owns (the bench block's table, the snapshot's value) or anywhere
    const edited = file.endsWith(".md") || file.endsWith(".json") ? `${text}\n` : text;
    await Bun.write(path, edited.replace("| tool |", "| tool (edited) |").replace('"type": "array"', '"type": "list"'));
  }
  const stale = await run(["--check"], copy);
  expect(stale.code).toBe(1);
  for (const file of GENERATED) expect(stale.output).toContain(file);

  const written = await run([], copy);
  expect(written.code).toBe(0);
  for (const file of GENERATED.filter((f) => f !== "bench/README.md"))
    expect(await Bun.file(join(copy, file)).text()).toBe(await Bun.file(join(ROOT, file)).text());
  const table = (dir: string) => readBlock(join(dir, "bench/README.md"), "tool-tokens")?.split("| tool |")[1];
  expect(table(copy)).toBe(table(ROOT));
  expect(await run(["--check"], copy)).toMatchObject({ code: 0 });
}, 300_000);
