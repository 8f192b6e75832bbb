/**
 * A session's state lives on the Session (its fields, or `extras` for what a higher layer owns) and a server's
 * on its ServerContext: no module-level map keyed by a session, which two servers in one process would share
 * and a reader would have to hunt for.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { Glob } from "bun";

const ROOT = join(import.meta.dir, "..", "..");

/** A top-level `const x = new WeakMap<Session, ...>()` or `let x: Map<Session, ...>`: not indented, not a field. */
const MODULE_MAP_OF_SESSIONS =
  /^(?:export\s+)?(?:const|let|var)\s+\w+\s*(?::\s*(?:Weak)?Map\s*<\s*Session\b|.*=\s*new\s+(?:Weak)?Map\s*<\s*Session\b)/;

test("the pattern finds a module-level map of sessions and leaves a class's own alone", () => {
  expect(MODULE_MAP_OF_SESSIONS.test("const recordings = new WeakMap<Session, Recording>();")).toBe(true);
  expect(MODULE_MAP_OF_SESSIONS.test("export const seen = new Map<Session, number>();")).toBe(true);
  expect(MODULE_MAP_OF_SESSIONS.test("let oracles: WeakMap<Session, ReadyOracle> = new WeakMap();")).toBe(true);
  expect(MODULE_MAP_OF_SESSIONS.test("  private readonly leases = new Map<Session, Lease>();")).toBe(false);
  expect(MODULE_MAP_OF_SESSIONS.test("const cache = new Map<string, Promise<Uint8Array>>();")).toBe(false);
});

test("no module-level WeakMap or Map keyed by Session in src/", async () => {
  const found: string[] = [];
  for await (const path of new Glob("src/**/*.ts").scan(ROOT)) {
    const lines = (await Bun.file(join(ROOT, path)).text()).split("\n");
    lines.forEach((line, i) => {
      if (MODULE_MAP_OF_SESSIONS.test(line)) found.push(`${path}:${i + 1}: ${line.trim()}`);
    });
  }
  expect(found).toEqual([]);
});
