/** Import rules from ARCHITECTURE.md, checked mechanically: each library stays inside its layer. */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { join, relative } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");
const RULES: { pattern: RegExp; allowed: (file: string) => boolean; what: string }[] = [
  { pattern: /from "@modelcontextprotocol\/sdk\/server/, allowed: (f) => f === "server.ts", what: "the MCP server SDK" },
  // web/assets.ts only embeds @xterm/xterm's browser build as files for the viewer page
  { pattern: /from "@xterm\//, allowed: (f) => f.startsWith("term/") || f === "web/assets.ts", what: "@xterm/*" },
  { pattern: /from "bun-pty"|import\("bun-pty"\)/, allowed: (f) => f.startsWith("pty/"), what: "bun-pty" },
  { pattern: /console\.log|process\.stdout\.write/, allowed: (f) => f === "main.ts", what: "stdout writes (stdout is the protocol)" },
];

test("libraries are imported only in their own layer", async () => {
  const violations: string[] = [];
  for await (const path of new Glob("**/*.ts").scan(SRC)) {
    const source = await Bun.file(join(SRC, path)).text();
    const file = relative(SRC, join(SRC, path));
    for (const rule of RULES) if (rule.pattern.test(source) && !rule.allowed(file)) violations.push(`${file} uses ${rule.what}`);
  }
  expect(violations).toEqual([]);
});
