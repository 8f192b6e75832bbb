/**
 * The screen as SVG, cell by cell from the emulator: colours (default, 256-palette, true colour)
 * resolved through the session's live colours (Emulator.liveColours),
 * bold/italic/underline/inverse/dim/strikethrough/invisible,
 * wide and combining characters, box drawing, and the cursor in the shape the app set (DECSCUSR).
 * Geometry: DejaVu Sans Mono advances 1233/2048 em, so a 9 px cell takes a 14.95 px font, and
 * runs of plain characters line up with the grid; anything else gets its own positioned element.
 */
import type { Colours } from "../term/theme.ts";
import type { CellInfo, CursorState } from "../term/types.ts";
import { drawGlyph, fmt, isDrawnGlyph } from "./box-drawing.ts";

export const CELL_WIDTH = 9;
export const CELL_HEIGHT = 18;
export const FONT_FAMILY = "DejaVu Sans Mono";
const FONT_SIZE = (CELL_WIDTH * 2048) / 1233;
/** The font's ascent (1901/2048 em) centred in the 18 px line. */
const BASELINE = Math.round((CELL_HEIGHT - FONT_SIZE * (2384 / 2048)) / 2 + FONT_SIZE * (1901 / 2048));
const PLAIN = /^[\x20-\x7e]$/;

export interface ScreenImage {
  cols: number;
  rows: number;
  cells: CellInfo[][];
  cursor: CursorState;
  /** DECSCUSR's shape; default block. */
  cursorShape?: CursorShape;
}

export type CursorShape = "block" | "underline" | "bar";

const escapeXml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);

/** Resolved colours of a cell: inverse swaps them; bold brightens palette 0..7 as xterm.js does by default. */
export function cellColours(cell: CellInfo, colours: Colours): { fg: string; bg: string } {
  const pick = (value: string, fallback: string, bright: boolean) => {
    if (value === "default") return fallback;
    if (value.startsWith("p")) {
      const index = Number(value.slice(1));
      return colours.palette[bright && index < 8 ? index + 8 : index] ?? fallback;
    }
    return value;
  };
  const fg = pick(cell.fg, colours.fg, cell.bold);
  const bg = pick(cell.bg, colours.bg, false);
  return cell.inverse ? { fg: bg, bg: fg } : { fg, bg };
}

interface Run {
  col: number;
  text: string;
  style: string;
}

function textStyle(cell: CellInfo, fg: string): string {
  return (
    `fill="${fg}"${cell.bold ? ' font-weight="bold"' : ""}` +
    `${cell.italic ? ' font-style="italic"' : ""}` +
    `${cell.dim ? ' fill-opacity="0.5"' : ""}`
  );
}

/**
 * A run of text at its cell. Runs of more than one character carry textLength (cells x cell width):
 * a browser rounds the font's advance at some sizes (Chromium draws 8.99 px per character at this
 * size), and over a long row that drift moves glyphs out of their cells; textLength holds them on the grid.
 */
const textAt = (col: number, row: number, text: string, style: string) => {
  const length = text.length > 1 ? ` textLength="${text.length * CELL_WIDTH}" lengthAdjust="spacing"` : "";
  return (
    `<text x="${col * CELL_WIDTH}" y="${row * CELL_HEIGHT + BASELINE}"${length} ` + `${style}>${escapeXml(text)}</text>`
  );
};

export function renderSvg(screen: ScreenImage, colours: Colours): { svg: string; width: number; height: number } {
  const width = screen.cols * CELL_WIDTH;
  const height = screen.rows * CELL_HEIGHT;
  const backgrounds: string[] = [];
  const texts: string[] = [];
  const glyphs: string[] = [];
  const lines: string[] = [];

  screen.cells.forEach((row, r) => {
    const y = r * CELL_HEIGHT;
    let bgRun: { col: number; end: number; colour: string } | undefined;
    let run: Run | undefined;
    const flushBg = () => {
      if (bgRun && bgRun.colour !== colours.bg)
        backgrounds.push(
          `<rect x="${bgRun.col * CELL_WIDTH}" y="${y}" ` +
            `width="${(bgRun.end - bgRun.col) * CELL_WIDTH}" height="${CELL_HEIGHT}" ` +
            `fill="${bgRun.colour}"/>`,
        );
      bgRun = undefined;
    };
    const flushText = () => {
      const text = run?.text.replace(/ +$/, "");
      if (run && text) texts.push(textAt(run.col, r, text, run.style));
      run = undefined;
    };
    row.forEach((cell, c) => {
      if (cell.width === 0) return; // right half of a wide character, drawn with its left half
      const span = Math.max(1, cell.width);
      const { fg, bg } = cellColours(cell, colours);
      if (bgRun?.colour === bg && bgRun.end === c) bgRun.end = c + span;
      else {
        flushBg();
        bgRun = { col: c, end: c + span, colour: bg };
      }
      const x = c * CELL_WIDTH;
      if (cell.underline)
        lines.push(`<rect x="${x}" y="${y + BASELINE + 2}" width="${span * CELL_WIDTH}" height="1" fill="${fg}"/>`);
      if (cell.strikethrough)
        lines.push(
          `<rect x="${x}" y="${y + Math.round(CELL_HEIGHT / 2)}" ` +
            `width="${span * CELL_WIDTH}" height="1" fill="${fg}"/>`,
        );
      const char = cell.invisible ? " " : cell.char;
      const style = textStyle(cell, fg);
      if (PLAIN.test(char) && span === 1) {
        if (run?.style === style && run.col + run.text.length === c) run.text += char;
        else {
          flushText();
          run = { col: c, text: char, style };
        }
        return;
      }
      flushText();
      if (char === "" || char === " ") return;
      if (isDrawnGlyph(char)) glyphs.push(drawGlyph(char, x, y, CELL_WIDTH, CELL_HEIGHT, fg, cell.dim ? 0.5 : 1));
      // Wide characters are centred on their two cells; combining marks stay in the same element as their base.
      else
        texts.push(
          span > 1
            ? `<text x="${x + CELL_WIDTH}" y="${y + BASELINE}" text-anchor="middle" ${style}>${escapeXml(char)}</text>`
            : textAt(c, r, char, style),
        );
    });
    flushBg();
    flushText();
  });

  const cursor = drawCursor(screen, colours);

  // Browsers collapse runs of spaces in SVG text unless the text element itself has white-space: pre
  // (Chromium neither inherits it from a <g> nor honours xml:space there); one <style> rule sets it on
  // every <text>. resvg ignores that property and honours xml:space on the group.
  const group = `<g font-family="${FONT_FAMILY}, monospace" font-size="${fmt(FONT_SIZE)}" xml:space="preserve">`;
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    "<style>text{white-space:pre}</style>",
    `<rect width="100%" height="100%" fill="${colours.bg}"/>`,
    ...backgrounds,
    group,
    ...texts,
    "</g>",
    ...glyphs,
    ...lines,
    group,
    ...cursor,
    "</g>",
    "</svg>",
  ].join("\n");
  return { svg, width, height };
}

/** Underline and bar cursors are 2 px strokes, as xterm.js draws them (cursorWidth 1 at 2x). */
const CURSOR_STROKE = 2;

function drawCursor(screen: ScreenImage, colours: Colours): string[] {
  const { row, col, visible } = screen.cursor;
  const under = screen.cells[row]?.[col];
  if (!visible || !under) return [];
  const span = Math.max(1, under.width);
  const x = col * CELL_WIDTH;
  const y = row * CELL_HEIGHT;
  const shape = screen.cursorShape ?? "block";
  const rect = (rx: number, ry: number, w: number, h: number) =>
    `<rect x="${rx}" y="${ry}" width="${w}" height="${h}" fill="${colours.cursor}"/>`;
  if (shape === "underline") return [rect(x, y + CELL_HEIGHT - CURSOR_STROKE, span * CELL_WIDTH, CURSOR_STROKE)];
  if (shape === "bar") return [rect(x, y, CURSOR_STROKE, CELL_HEIGHT)];
  // A focused xterm's block cursor: the cell in the cursor colour, its character in the background colour.
  const { bg } = cellColours(under, colours);
  const out = [rect(x, y, span * CELL_WIDTH, CELL_HEIGHT)];
  if (under.char.trim() !== "" && !under.invisible) {
    const glyph = isDrawnGlyph(under.char) ? drawGlyph(under.char, x, y, CELL_WIDTH, CELL_HEIGHT, bg) : undefined;
    out.push(glyph ?? textAt(col, row, under.char, textStyle({ ...under, dim: false }, bg)));
  }
  return out;
}
