/** The renderer on an emulator fed known sequences: colours, attributes, box drawing, cursor, theme. */
import { describe, expect, test } from "bun:test";
import { svgToPng } from "../../src/render/png.ts";
import { CELL_HEIGHT, CELL_WIDTH, renderSvg } from "../../src/render/svg.ts";
import { Emulator } from "../../src/term/emulator.ts";
import type { TerminalTheme } from "../../src/term/types.ts";
import { cellBackground, cellColours, decodePng, pixel } from "./png.ts";

async function render(
  input: string,
  options: { cols?: number; rows?: number; theme?: Partial<TerminalTheme>; scale?: number } = {},
) {
  const emulator = new Emulator({
    cols: options.cols ?? 20,
    rows: options.rows ?? 4,
    reply: () => undefined,
    theme: options.theme,
  });
  emulator.write(input);
  await emulator.flushed();
  const snap = emulator.snapshot({ grid: true });
  const colours = emulator.liveColours();
  emulator.dispose();
  const { svg, width, height } = renderSvg(
    { cols: snap.cols, rows: snap.rows, cells: snap.grid!, cursor: snap.cursor },
    colours,
  );
  const { png } = await svgToPng(svg, options.scale ?? 1);
  return { svg, width, height, png: decodePng(png) };
}

const inked = (counts: Map<string, number>, colour: string) => counts.get(colour) ?? 0;

describe("screenshot rendering", () => {
  test("the same screen gives the same PNG bytes (bundled fonts only, no system fonts)", async () => {
    const input = "\x1b[1;34mbold blue\x1b[0m ┌─┐ \x1b[3mitalic\x1b[0m ⠋";
    const a = await render(input);
    const b = await render(input);
    expect(Buffer.from(a.png.data).equals(Buffer.from(b.png.data))).toBe(true);
    // ink where the bold text is: the text really is drawn with a font
    expect([...cellColours(a.png, 0, 0).keys()].length).toBeGreaterThan(2);
  });

  test("size is 9x18 pixels per cell, times the scale", async () => {
    const one = await render("hi", { cols: 10, rows: 3 });
    expect([one.png.width, one.png.height]).toEqual([10 * CELL_WIDTH, 3 * CELL_HEIGHT]);
    const two = await render("hi", { cols: 10, rows: 3, scale: 2 });
    expect([two.png.width, two.png.height]).toEqual([20 * CELL_WIDTH, 6 * CELL_HEIGHT]);
  });

  test("16-colour, 256-colour and true-colour backgrounds land in their cells", async () => {
    const { png } = await render(
      "\x1b[41mA\x1b[0m\x1b[48;5;33mB\x1b[0m\x1b[48;2;10;200;30mC\x1b[0m\x1b[7mD\x1b[0m\x1b[?25l",
    );
    expect(cellBackground(png, 0, 0)).toBe("#cd0000"); // xterm red
    expect(cellBackground(png, 0, 1)).toBe("#0087ff"); // cube 33
    expect(cellBackground(png, 0, 2)).toBe("#0ac81e");
    expect(cellBackground(png, 0, 3)).toBe("#e5e5e5"); // inverse: default fg as background
    expect(cellBackground(png, 0, 4)).toBe("#000000");
  });

  test("text is drawn in its colour, bold brightens the first 8 colours, blanks have no ink", async () => {
    const { png } = await render("\x1b[31mW\x1b[1mW\x1b[0m \x1b[38;2;255;128;0mW\x1b[0m\x1b[?25l");
    expect(inked(cellColours(png, 0, 0), "#cd0000")).toBeGreaterThan(10);
    expect(inked(cellColours(png, 0, 1), "#ff0000")).toBeGreaterThan(10); // bold red is bright red
    expect(cellColours(png, 0, 2)).toEqual(new Map([["#000000", CELL_WIDTH * CELL_HEIGHT]]));
    expect(inked(cellColours(png, 0, 3), "#ff8000")).toBeGreaterThan(10);
  });

  test("underline, strikethrough, dim, italic and invisible are rendered", async () => {
    const { svg, png } = await render(
      "\x1b[4mU\x1b[0m\x1b[9mS\x1b[0m\x1b[2mD\x1b[0m\x1b[3mI\x1b[0m\x1b[8mH\x1b[0m\x1b[?25l",
    );
    // underline: a full-width line under the baseline; strikethrough: one through the middle
    expect(Array.from({ length: CELL_WIDTH }, (_, x) => pixel(png, x, 16))).toEqual(Array(CELL_WIDTH).fill("#e5e5e5"));
    expect(Array.from({ length: CELL_WIDTH }, (_, x) => pixel(png, CELL_WIDTH + x, 9))).toEqual(
      Array(CELL_WIDTH).fill("#e5e5e5"),
    );
    expect(svg).toContain('fill-opacity="0.5"');
    expect(svg).toContain('font-style="italic"');
    expect(svg).not.toContain(">H<");
    expect(cellColours(png, 0, 4)).toEqual(new Map([["#000000", CELL_WIDTH * CELL_HEIGHT]]));
    // dim text is blended halfway to the background
    expect([...cellColours(png, 0, 2).keys()].some((c) => c !== "#000000" && c !== "#e5e5e5")).toBe(true);
  });

  test("box drawing joins across cells and rows; block elements fill the cell", async () => {
    const { png } = await render("┌─┐\r\n│█│\r\n└─┘\x1b[?25l", { cols: 3, rows: 3 });
    const fg = "#e5e5e5";
    // the vertical line of │ reaches the top and bottom pixel rows of its cell
    for (const y of [CELL_HEIGHT, 2 * CELL_HEIGHT - 1]) {
      const row = Array.from({ length: CELL_WIDTH }, (_, x) => png.data.readUInt32BE((y * png.width + x) * 4)).filter(
        (v) => v === 0xe5e5e5ff,
      );
      expect(row.length).toBeGreaterThan(0);
    }
    expect(cellColours(png, 1, 1)).toEqual(new Map([[fg, CELL_WIDTH * CELL_HEIGHT]]));
  });

  test("the cursor is a block in the cursor colour with the character in the background colour", async () => {
    const { png } = await render("ab\x1b[1;2H", { theme: { cursor: "#00ff00" } });
    const counts = cellColours(png, 0, 1);
    expect(inked(counts, "#00ff00")).toBeGreaterThan((CELL_WIDTH * CELL_HEIGHT) / 2);
    expect(inked(counts, "#000000")).toBeGreaterThan(5); // the "b" drawn over it
  });

  test("the session's theme sets the default colours and the palette", async () => {
    const theme = { background: "#fdf6e3", foreground: "#657b83", ansi: ["#073642", "#dc322f"] };
    const { png } = await render("W\x1b[41m \x1b[0m\x1b[?25l", { theme });
    expect(cellBackground(png, 0, 0)).toBe("#fdf6e3");
    expect(inked(cellColours(png, 0, 0), "#657b83")).toBeGreaterThan(5);
    expect(cellBackground(png, 0, 1)).toBe("#dc322f");
  });

  test("colours the app set at runtime (OSC 11 background, OSC 10 foreground, OSC 4 palette) are the picture's", async () => {
    const { png } = await render(
      "\x1b]11;#fdf6e3\x07\x1b]10;rgb:65/7b/83\x07\x1b]4;1;#dc322f\x07W\x1b[41m \x1b[0m\x1b[?25l",
    );
    expect(cellBackground(png, 0, 0)).toBe("#fdf6e3");
    expect(inked(cellColours(png, 0, 0), "#657b83")).toBeGreaterThan(5);
    expect(cellBackground(png, 0, 1)).toBe("#dc322f");
    // OSC 104 / 110 / 111 put them back
    const reset = await render(
      "\x1b]11;#fdf6e3\x07\x1b]4;1;#dc322f\x07\x1b]111\x07\x1b]104\x07W\x1b[41m \x1b[0m\x1b[?25l",
    );
    expect(cellBackground(reset.png, 0, 0)).toBe("#000000");
    expect(cellBackground(reset.png, 0, 1)).toBe("#cd0000");
  });

  test("wide characters take two cells and combining marks stay with their base", async () => {
    const { svg } = await render("日x e\u0301z\x1b[?25l");
    expect(svg).toContain('text-anchor="middle"');
    expect(svg).toContain(`<text x="${CELL_WIDTH}" `); // centred on cells 0-1
    expect(svg).toContain(">e\u0301<");
    expect(svg).toContain(`<text x="${2 * CELL_WIDTH}" y="14" fill="#e5e5e5">x</text>`);
  });
});
