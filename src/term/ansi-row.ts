/** A row of cells as SGR-coded text: what an ansi golden holds (colours and attributes, trailing blanks cut). */
import type { CellInfo } from "./types.ts";

function sgrColour(value: string, base: number): string[] {
  if (value === "default") return [];
  if (value.startsWith("p")) {
    const n = Number(value.slice(1));
    return n < 8 ? [String(base + n)] : n < 16 ? [String(base + 60 + n - 8)] : [`${base + 8};5;${n}`];
  }
  const rgb = Number.parseInt(value.slice(1), 16);
  return [`${base + 8};2;${(rgb >> 16) & 255};${(rgb >> 8) & 255};${rgb & 255}`];
}

/** SGR parameters of a cell (ECMA-48 8.3.117); empty for default attributes. */
function sgrOf(c: CellInfo): string {
  const flags: [boolean, string][] = [
    [c.bold, "1"],
    [c.dim, "2"],
    [c.italic, "3"],
    [c.underline, "4"],
    [c.blink, "5"],
    [c.inverse, "7"],
    [c.invisible, "8"],
    [c.strikethrough, "9"],
    [c.overline, "53"],
  ];
  return [...flags.filter(([on]) => on).map(([, code]) => code), ...sgrColour(c.fg, 30), ...sgrColour(c.bg, 40)].join(
    ";",
  );
}

/** One row as text with SGR runs, reset at the end; trailing default blanks dropped. */
export function ansiRow(cells: CellInfo[]): string {
  const shown = cells.filter((c) => c.width > 0);
  let end = shown.length;
  while (end > 0 && shown[end - 1]!.char === " " && sgrOf(shown[end - 1]!) === "") end--;
  let out = "";
  let current = "";
  for (const cell of shown.slice(0, end)) {
    const sgr = sgrOf(cell);
    if (sgr !== current) out += sgr === "" ? "\x1b[0m" : `\x1b[0;${sgr}m`;
    current = sgr;
    out += cell.char;
  }
  return current === "" ? out : `${out}\x1b[0m`;
}
