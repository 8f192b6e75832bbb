/**
 * One terminal size bound, MAX_COLS x MAX_ROWS (src/term/size.ts), at every door: the tools' schemas, the
 * library's launch, a recording's header. And no door spells the numbers itself.
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { Glob } from "bun";
import * as v from "valibot";
import { launch } from "../../src/lib/launch.ts";
import { parseCast } from "../../src/record/cast-file.ts";
import { MAX_COLS, MAX_ROWS } from "../../src/term/size.ts";
import { resizeTool } from "../../src/tools/screen-tools.ts";
import { startSessionTool } from "../../src/tools/session-tools.ts";

const castOf = (cols: number, rows: number) => `${JSON.stringify({ version: 2, width: cols, height: rows })}\n`;

test("start_session and resize accept the largest size and refuse one more", () => {
  const start = (cols: number, rows: number) =>
    v.safeParse(startSessionTool.input, { command: "sh", cols, rows }).success;
  expect(start(MAX_COLS, MAX_ROWS)).toBe(true);
  expect(start(MAX_COLS + 1, MAX_ROWS)).toBe(false);
  expect(start(MAX_COLS, MAX_ROWS + 1)).toBe(false);
  const grow = (cols: number, rows: number) => v.safeParse(resizeTool.input, { sessionId: "s1", cols, rows }).success;
  expect(grow(MAX_COLS, MAX_ROWS)).toBe(true);
  expect(grow(MAX_COLS + 1, MAX_ROWS)).toBe(false);
  expect(grow(MAX_COLS, MAX_ROWS + 1)).toBe(false);
});

test("launch refuses a size beyond the bound before it starts anything", async () => {
  await expect(launch("sh", { cols: MAX_COLS + 1 })).rejects.toThrow(`cols ${MAX_COLS + 1} is not an integer`);
  await expect(launch("sh", { rows: MAX_ROWS + 1 })).rejects.toThrow(`rows ${MAX_ROWS + 1} is not an integer`);
});

test("a recording's header may be as large as a session, no larger", () => {
  expect(parseCast(castOf(MAX_COLS, MAX_ROWS)).cols).toBe(MAX_COLS);
  expect(() => parseCast(castOf(MAX_COLS + 1, MAX_ROWS))).toThrow(`within 1x1..${MAX_COLS}x${MAX_ROWS}`);
  expect(() => parseCast(castOf(MAX_COLS, MAX_ROWS + 1))).toThrow("no terminal size");
});

test("no file in src/ writes the size bound as a number", async () => {
  const root = join(import.meta.dir, "..", "..");
  const literal = new RegExp(`(cols|rows|width|height)[^\\n]{0,40}\\b(${MAX_COLS}|${MAX_ROWS})\\b(?!\\s*ms)`);
  const found: string[] = [];
  for await (const path of new Glob("src/**/*.ts").scan(root)) {
    if (path === "src/term/size.ts") continue;
    for (const [i, line] of (await Bun.file(join(root, path)).text()).split("\n").entries()) {
      const code = line.replace(/\/\/.*$|^\s*\*.*$/, "");
      if (literal.test(code)) found.push(`${path}:${i + 1}: ${line.trim()}`);
    }
  }
  expect(found).toEqual([]);
});
