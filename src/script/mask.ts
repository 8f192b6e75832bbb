/**
 * expect_snapshot masks: cells whose text differs from run to run (a clock, a pid, a spinner) are
 * replaced by MASK_CHAR in both the golden and the screen before they are compared. A mask is a
 * regex (every match on a row) or a region (a rectangle of the screen, 0-based, in screen rows and
 * columns whatever region the snapshot compares).
 */
import * as v from "valibot";
import { compileMatcher, type Matcher } from "../session/matcher.ts";
import type { CellInfo } from "../term/types.ts";

/** What a masked cell reads as. Not a character apps commonly draw in text. */
export const MASK_CHAR = "░";
/** Masks per step; a regex mask finds at most this many matches per row. */
const MAX_MASKS = 100;

const maskRegion = v.strictObject({
  row: v.pipe(v.number(), v.integer(), v.minValue(0)),
  col: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
  rows: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1),
  cols: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 1000),
});

export const maskSchema = v.pipe(
  v.array(
    v.union([
      v.strictObject({ regex: v.pipe(v.string(), v.minLength(1), v.maxLength(1000)), flags: v.optional(v.pipe(v.string(), v.regex(/^[ims]*$/, "flags may only contain i, m, s"))) }),
      v.strictObject({ region: maskRegion }),
    ]),
  ),
  v.maxLength(MAX_MASKS),
  v.description(`Cells replaced by "${MASK_CHAR}" in golden and screen before comparing: { regex, flags? } (each match per row) or { region: { row, col, rows, cols } }.`),
);

export type Mask = v.InferOutput<typeof maskSchema>[number];

/** Compile every regex mask now, so a bad one fails before anything runs. */
export function checkMasks(masks: Mask[] | undefined): void {
  for (const mask of masks ?? []) if ("regex" in mask) compileMatcher({ pattern: mask.regex, regex: true, regexFlags: mask.flags ?? "" })[Symbol.dispose]();
}

/** A cell under a region mask (masked one for one) or a regex match (each match becomes one MASK_CHAR). */
export const BY_REGION = 1;
export const BY_REGEX = 2;

/** Which cells of the screen the masks cover (screen coordinates, before any snapshot region is cut). */
export async function maskedCells(grid: CellInfo[][], masks: Mask[] | undefined): Promise<number[][] | undefined> {
  if (!masks || masks.length === 0) return undefined;
  const flags = grid.map((row) => row.map(() => 0));
  for (const mask of masks) {
    if ("region" in mask) {
      const r = mask.region;
      for (let row = Math.max(0, r.row); row < Math.min(flags.length, r.row + r.rows); row++) {
        for (let col = r.col; col < Math.min(flags[row]!.length, r.col + r.cols); col++) flags[row]![col] ||= BY_REGION;
      }
      continue;
    }
    using matcher = compileMatcher({ pattern: mask.regex, regex: true, regexFlags: mask.flags ?? "" });
    for (const [y, row] of grid.entries()) {
      const shown = [...row.keys()].filter((x) => row[x]!.width > 0);
      for (const [start, end] of await matches(matcher, shown.map((x) => row[x]!.char))) {
        // a match starts a run of its own: two matches side by side stay two placeholders
        // inside an earlier regex mask's match, a later one adds nothing (no extra placeholders)
        if (Math.abs(flags[y]![shown[start]!]!) === BY_REGEX) continue;
        for (const [i, x] of shown.slice(start, end).entries()) flags[y]![x] = i === 0 ? -BY_REGEX : BY_REGEX;
        const last = shown[end - 1];
        if (last !== undefined && row[last]!.width === 2) flags[y]![last + 1] = BY_REGEX;
      }
    }
  }
  return flags;
}

/**
 * A row's cells with masked ones replaced by MASK_CHAR cells of default attributes: one per cell under
 * a region, one per regex match, so a value whose width changes (9:59 -> 10:00, 5ms -> 12ms) masks the
 * same in golden and screen. Masking text already masked changes nothing.
 */
export function collapseMasked(cells: CellInfo[], masked: number[] | undefined): CellInfo[] {
  if (!masked) return cells;
  const out: CellInfo[] = [];
  for (const [i, cell] of cells.entries()) {
    const flag = masked[i] ?? 0;
    if (flag === 0) out.push(cell);
    else if (flag !== BY_REGEX || (masked[i - 1] ?? 0) === 0 || (masked[i - 1] ?? 0) === BY_REGION) out.push({ ...PLAIN, char: MASK_CHAR, width: cell.width === 0 ? 0 : 1 });
  }
  return out.filter((c) => c.width > 0 || c.char !== MASK_CHAR);
}

const PLAIN: CellInfo = { char: " ", width: 1, fg: "default", bg: "default", bold: false, italic: false, underline: false, inverse: false, dim: false, strikethrough: false, blink: false, invisible: false, overline: false };

/** The same masks on plain text rows (a kept screen of `cols` columns), as expect_snapshot renders them. */
export async function maskLines(lines: string[], masks: Mask[] | undefined, cols: number): Promise<string[]> {
  if (!masks || masks.length === 0) return lines;
  const grid = lines.map((line) => [...line.padEnd(cols)].map((char) => ({ ...PLAIN, char })));
  const flags = await maskedCells(grid, masks);
  return grid.map((row, y) => collapseMasked(row, flags?.[y]).map((c) => c.char).join("").trimEnd());
}

/** [first, end) cell indexes of every match of the regex in one row's characters (one per cell). */
async function matches(matcher: Matcher, chars: string[]): Promise<[number, number][]> {
  const text = chars.join("");
  // string index -> cell index (a cell's character may be two UTF-16 units)
  const cellAt: number[] = [];
  chars.forEach((char, cell) => {
    for (let i = 0; i < char.length; i++) cellAt.push(cell);
  });
  cellAt.push(chars.length);
  const found: [number, number][] = [];
  let from = 0;
  while (from <= text.length && found.length < MAX_MASKS) {
    const m = await matcher.find(text.slice(from));
    if (m === null) break;
    const start = from + m.index;
    const end = start + m.length;
    if (end > start) found.push([cellAt[start]!, cellAt[end] ?? chars.length]);
    from = Math.max(end, start + 1);
  }
  return found;
}

/** Region masks moved into the coordinates of a snapshot region that starts at (row, col). */
export function shiftMasks(masks: Mask[], row: number, col: number): Mask[] {
  return masks.map((m) => ("region" in m ? { region: { ...m.region, row: m.region.row - row, col: Math.max(0, m.region.col - col) } } : m)).filter((m) => !("region" in m) || m.region.row + m.region.rows > 0);
}
