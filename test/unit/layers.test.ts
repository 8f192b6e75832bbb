/**
 * The house rules, checked mechanically (in the spirit of Playwright's DEPS.list): each room of src/
 * (a folder, or a file at the top of src/) lists the rooms it may import. An import not in its
 * room's list fails, so does a new room not in the table, a table whose rooms could import in a
 * circle, and a circle of value imports between files. Libraries stay in their own room too.
 */
import { expect, test } from "bun:test";
import { Glob } from "bun";
import { dirname, join, relative, resolve } from "node:path";

const SRC = join(import.meta.dir, "..", "..", "src");

/** Room -> the rooms it may import, lowest floor first. To add a room or an import, edit here. */
const DEPS: Record<string, string[]> = {
  // Floor 0: leaves.
  errors: [],
  util: ["errors"],
  // Floor 1: the terminal's parts.
  keys: ["errors", "util"],
  pty: ["errors", "util"],
  term: ["keys", "util", "errors"],
  config: ["term", "util"],
  mouse: ["errors", "term"],
  // Floor 2: a session (PTY + emulator), and what watches or draws one.
  session: ["config", "errors", "keys", "mouse", "pty", "term", "util"],
  monitor: ["config", "errors", "session", "term", "util"],
  record: ["errors", "session", "term", "util"],
  render: ["errors", "record", "session", "term", "util"],
  viewer: ["errors", "session", "util"],
  web: ["errors", "record", "render", "session", "term", "util"],
  // The html report: a run's results and recordings drawn as one page.
  report: ["record", "render"],
  // Floor 3: the public TypeScript API over the engine.
  lib: ["config", "errors", "keys", "mouse", "pty", "record", "render", "session", "term", "util"],
  // Floor 4: the MCP tools over it, and run_script's engine over the tools.
  tools: [
    "config",
    "errors",
    "keys",
    "lib",
    "monitor",
    "mouse",
    "record",
    "render",
    "session",
    "term",
    "util",
    "viewer",
    "web",
  ],
  script: ["config", "errors", "lib", "monitor", "session", "term", "tools", "util"],
  // Floor 5: the catalog of every tool and step.
  catalog: ["script", "tools"],
  // Floor 6: the faces: the MCP server, the test runner, the entry.
  "stdio-transport": ["util"],
  server: ["stdio-transport", "tools"],
  cli: [
    "catalog",
    "config",
    "errors",
    "lib",
    "record",
    "render",
    "report",
    "script",
    "session",
    "term",
    "tools",
    "util",
  ],
  main: ["catalog", "cli", "config", "pty", "render", "server", "tools", "util"],
};

/** Libraries that only one room may import. */
const LIBRARY_RULES: { pattern: RegExp; allowed: (file: string) => boolean; what: string }[] = [
  {
    pattern: /from "@modelcontextprotocol\/sdk\/server/,
    allowed: (f) => f === "server.ts",
    what: "the MCP server SDK",
  },
  // web/assets.ts only embeds @xterm/xterm's browser build as files for the viewer page
  { pattern: /from "@xterm\//, allowed: (f) => f.startsWith("term/") || f === "web/assets.ts", what: "@xterm/*" },
  { pattern: /from "bun-pty"|import\("bun-pty"\)/, allowed: (f) => f.startsWith("pty/"), what: "bun-pty" },
  {
    pattern: /console\.log|process\.stdout\.write/,
    allowed: (f) => f === "main.ts",
    what: "stdout writes (stdout is the protocol)",
  },
];

interface Import {
  target: string;
  /** Loaded with the module (not `import type`, not a dynamic `import()`): these can form a load-order circle. */
  eager: boolean;
}

const roomOf = (file: string) => (file.includes("/") ? file.split("/")[0]! : file.replace(/\.ts$/, ""));

async function sources(): Promise<Map<string, { text: string; imports: Import[] }>> {
  const files = new Map<string, { text: string; imports: Import[] }>();
  for await (const path of new Glob("**/*.ts").scan(SRC)) {
    const text = await Bun.file(join(SRC, path)).text();
    const imports: Import[] = [];
    const at = (spec: string) => relative(SRC, resolve(dirname(join(SRC, path)), spec));
    const add = (spec: string, eager: boolean) => {
      const target = at(spec);
      if (!target.startsWith("..")) imports.push({ target, eager }); // package.json and the like are outside the rooms
    };
    for (const m of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?\bfrom\s+"(\.[^"]+)"/gm))
      add(m[3]!, m[2] === undefined);
    for (const m of text.matchAll(/^import\s+"(\.[^"]+)"/gm)) add(m[1]!, true);
    for (const m of text.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g)) add(m[1]!, false);
    files.set(path, { text, imports });
  }
  return files;
}

const files = await sources();

test("every room of src/ is in the table", () => {
  const rooms = new Set([...files.keys()].map(roomOf));
  const missing = [...rooms].filter((room) => !(room in DEPS));
  expect(missing, "add the new room to DEPS in test/unit/layers.test.ts, with the rooms it may import").toEqual([]);
});

test("each room imports only the rooms its entry lists (no import runs upward)", () => {
  const violations: string[] = [];
  for (const [file, { imports }] of files) {
    const from = roomOf(file);
    for (const { target } of imports) {
      const to = roomOf(target);
      if (to !== from && !DEPS[from]?.includes(to))
        violations.push(`${file} imports ${target}: ${from} may import ${DEPS[from]?.join(", ") || "nothing"}`);
    }
  }
  expect(violations).toEqual([]);
});

test("the table has no circle: its rooms stack into floors", () => {
  const floor = new Map<string, number>();
  const visiting: string[] = [];
  const place = (room: string): number => {
    if (visiting.includes(room))
      throw new Error(`circle in DEPS: ${[...visiting.slice(visiting.indexOf(room)), room].join(" -> ")}`);
    const known = floor.get(room);
    if (known !== undefined) return known;
    visiting.push(room);
    const below = (DEPS[room] ?? []).map((dep) => {
      if (!(dep in DEPS)) throw new Error(`DEPS.${room} lists "${dep}", which is not a room`);
      return place(dep);
    });
    visiting.pop();
    const level = Math.max(-1, ...below) + 1;
    floor.set(room, level);
    return level;
  };
  for (const room of Object.keys(DEPS)) place(room);
  expect(floor.get("errors")).toBe(0);
  expect(floor.get("main")).toBe(Math.max(...floor.values()));
});

test("no circle of value imports between files", () => {
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const circles: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const { target, eager } of files.get(file)?.imports ?? []) {
      if (!eager) continue;
      if (state.get(target) === "open") circles.push([...stack.slice(stack.indexOf(target)), target].join(" -> "));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of files.keys()) if (!state.has(file)) visit(file);
  expect([...new Set(circles)]).toEqual([]);
});

test("libraries are imported only in their own room", () => {
  const violations: string[] = [];
  for (const [file, { text }] of files) {
    for (const rule of LIBRARY_RULES)
      if (rule.pattern.test(text) && !rule.allowed(file)) violations.push(`${file} uses ${rule.what}`);
  }
  expect(violations).toEqual([]);
});
