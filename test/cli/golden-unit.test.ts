/** The pure pieces: ANSI rows from cells, the row diff, XML escaping, file discovery. */
import { expect, test } from "bun:test";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { discoverTestFiles } from "../../src/cli/discover.ts";
import { xmlEscape } from "../../src/cli/junit.ts";
import { ansiRow, rowDiff } from "../../src/lib/golden.ts";
import { BLANK_CELL } from "../../src/term/cells.ts";
import type { CellInfo } from "../../src/term/types.ts";
import { scratch } from "./cli-helpers.ts";

const plain = BLANK_CELL;
const cells = (text: string, attrs: Partial<CellInfo> = {}) => [...text].map((char) => ({ ...plain, char, ...attrs }));

test("ansiRow: SGR per run (palette, bright, 256, true colour, flags), reset at the end, default blanks trimmed", () => {
  expect(ansiRow([...cells("ab"), ...cells("  ")])).toBe("ab");
  expect(
    ansiRow([
      ...cells("r", { fg: "p1" }),
      ...cells("B", { fg: "p9", bg: "p4" }),
      ...cells("x", { fg: "p200" }),
      ...cells("t", { bg: "#0a0b0c" }),
      ...cells(" "),
    ]),
  ).toBe("\x1b[0;31mr\x1b[0;91;44mB\x1b[0;38;5;200mx\x1b[0;48;2;10;11;12mt\x1b[0m");
  expect(
    ansiRow([...cells("a", { bold: true, underline: true }), ...cells(" ", { inverse: true }), ...cells("z")]),
  ).toBe("\x1b[0;1;4ma\x1b[0;7m \x1b[0mz");
  // the right half of a wide character (width 0) is not written twice
  expect(ansiRow([{ ...plain, char: "界", width: 2 }, { ...plain, char: "", width: 0 }, ...cells("!")])).toBe("界!");
});

test("rowDiff: numbered by screen row from the region's first row, missing rows and escapes shown", () => {
  const { changedRows, text } = rowDiff(["same", "old", "gone"], ["same", "new"], 5, false);
  expect(changedRows).toEqual([
    { row: 6, expected: "old", actual: "new" },
    { row: 7, expected: "gone", actual: null },
  ]);
  expect(text).toContain("- row 6 |old|\n  + row 6 |new|");
  expect(text).toContain("+ row 7 (no row)");
  expect(text).toContain("golden has 3 rows, screen region has 2");
  expect(rowDiff(["\x1b[0;1mA\x1b[0m"], ["A"], 0, true).text).toContain("|\\e[0;1mA\\e[0m|");
  const long = rowDiff(["x".repeat(1000)], ["y"], 0, false).text;
  expect(long.length).toBeLessThan(500);
});

test("xmlEscape: markup escaped, characters XML 1.0 forbids made visible", () => {
  expect(xmlEscape(`<a href="x">&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
  expect(xmlEscape("a\x1bb\x00c\td\n😀")).toBe("a\\x1bb\\x00c\td\n😀");
});

test("discovery: directories, globs and files; node_modules, dot and __snapshots__ directories skipped", async () => {
  await using s = await scratch();
  for (const path of [
    "a.tui.json",
    "sub/b.tui.yaml",
    "sub/c.tui.yml",
    "node_modules/x/d.tui.json",
    ".hidden/e.tui.json",
    "__snapshots__/f.tui.json",
    "g.json",
  ]) {
    await mkdir(join(s.dir, path, ".."), { recursive: true });
    await Bun.write(join(s.dir, path), "{}");
  }
  const rel = (files: string[]) => files.map((f) => f.slice(s.dir.length + 1));
  expect(rel(await discoverTestFiles([], s.dir))).toEqual(["a.tui.json", "sub/b.tui.yaml", "sub/c.tui.yml"]);
  expect(rel(await discoverTestFiles(["sub/*.tui.yaml", "a.tui.json", "sub"], s.dir))).toEqual([
    "a.tui.json",
    "sub/b.tui.yaml",
    "sub/c.tui.yml",
  ]);
  expect(rel(await discoverTestFiles(["**/*.tui.json"], s.dir))).toEqual(["a.tui.json"]);
});
