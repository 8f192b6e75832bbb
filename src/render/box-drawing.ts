/**
 * Box drawing (U+2500..U+257F) and block elements (U+2580..U+259F) drawn as rectangles filling the
 * cell, as xterm.js's own renderers do ("customGlyphs"): font glyphs leave gaps between rows when
 * the line height is taller than the font, and a screenshot should show joined frames.
 */

/**
 * Arms up/right/down/left: 0 none, 1 light, 2 heavy, 3 double. Dashed lines are drawn solid; rounded corners get an
 * arc (ROUNDED).
 */
const ARMS: Record<number, string> = {};
const table: [number, string][] = [
  [0x2500, "0101 0202 1010 2020 0101 0202 1010 2020 0101 0202 1010 2020"],
  [0x250c, "0110 0210 0120 0220 0011 0012 0021 0022 1100 1200 2100 2200 1001 1002 2001 2002"],
  [0x251c, "1110 1210 2110 1120 2120 2210 1220 2220 1011 1012 2011 1021 2021 2012 1022 2022"],
  [0x252c, "0111 0112 0211 0212 0121 0122 0221 0222 1101 1102 1201 1202 2101 2102 2201 2202"],
  [0x253c, "1111 1112 1211 1212 2111 1121 2121 2112 2211 1122 1221 2212 1222 2122 2221 2222"],
  [0x254c, "0101 0202 1010 2020"],
  [
    0x2550,
    "0303 3030 0310 0130 0330 0013 0031 0033 1300 3100 3300 1003 3001 3003 1310 " +
      "3130 3330 1013 3031 3033 0313 0131 0333 1303 3101 3303 1313 3131 3333",
  ],
  [0x256d, "0110 0011 1001 1100"],
  [0x2574, "0001 1000 0100 0010 0002 2000 0200 0020"],
];
for (const [start, codes] of table) codes.split(" ").forEach((arms, i) => (ARMS[start + i] = arms));

/** Block elements as [x0, y0, x1, y1, opacity] fractions of the cell. */
const BLOCKS: Record<number, [number, number, number, number, number][]> = {
  0x2580: [[0, 0, 1, 0.5, 1]],
  0x2588: [[0, 0, 1, 1, 1]],
  0x2590: [[0.5, 0, 1, 1, 1]],
  0x2591: [[0, 0, 1, 1, 0.25]],
  0x2592: [[0, 0, 1, 1, 0.5]],
  0x2593: [[0, 0, 1, 1, 0.75]],
  0x2594: [[0, 0, 1, 0.125, 1]],
  0x2595: [[0.875, 0, 1, 1, 1]],
};
for (let i = 1; i <= 7; i++) {
  BLOCKS[0x2580 + i] = [[0, 1 - i / 8, 1, 1, 1]]; // lower i/8
  BLOCKS[0x2590 - i] = [[0, 0, i / 8, 1, 1]]; // left i/8 (U+2589 is 7/8 ... U+258F is 1/8)
}
const Q = {
  ul: [0, 0, 0.5, 0.5, 1],
  ur: [0.5, 0, 1, 0.5, 1],
  ll: [0, 0.5, 0.5, 1, 1],
  lr: [0.5, 0.5, 1, 1, 1],
} as const;
const quadrants: (keyof typeof Q)[][] = [
  ["ll"],
  ["lr"],
  ["ul"],
  ["ul", "ll", "lr"],
  ["ul", "lr"],
  ["ul", "ur", "ll"],
  ["ul", "ur", "lr"],
  ["ur"],
  ["ur", "ll"],
  ["ur", "ll", "lr"],
];
quadrants.forEach((parts, i) => (BLOCKS[0x2596 + i] = parts.map((p) => [...Q[p]])));

/** ╭ ╮ ╯ ╰ (U+256D..U+2570): which cell edges the arc joins, as [horizontal side, vertical side]. */
const ROUNDED: Record<number, ["left" | "right", "up" | "down"]> = {
  0x256d: ["right", "down"],
  0x256e: ["left", "down"],
  0x256f: ["left", "up"],
  0x2570: ["right", "up"],
};

export function isDrawnGlyph(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return char.length === 1 && (ARMS[code] !== undefined || BLOCKS[code] !== undefined);
}

/**
 * SVG rects drawing `char` (with opacity `alpha`) in the cell at (x, y) of size w x h, or "" when it is not a drawn
 * glyph.
 */
export function drawGlyph(char: string, x: number, y: number, w: number, h: number, fill: string, alpha = 1): string {
  const code = char.codePointAt(0) ?? 0;
  const rect = (x0: number, y0: number, x1: number, y1: number, opacity = 1) =>
    `<rect x="${fmt(x0)}" y="${fmt(y0)}" width="${fmt(x1 - x0)}" ` +
    `height="${fmt(y1 - y0)}" ` +
    `fill="${fill}"${opacity * alpha < 1 ? ` fill-opacity="${opacity * alpha}"` : ""}/>`;
  const blocks = BLOCKS[code];
  if (blocks)
    return blocks.map(([x0, y0, x1, y1, o]) => rect(x + x0 * w, y + y0 * h, x + x1 * w, y + y1 * h, o)).join("");
  const arms = ARMS[code];
  if (!arms) return "";
  // Centre on a pixel's middle so 1-px light lines stay crisp at scale 1.
  const cx = x + Math.floor(w / 2) + 0.5;
  const cy = y + Math.floor(h / 2) - 0.5;
  const light = Math.max(1, Math.round(w / 9));
  const rounded = ROUNDED[code];
  if (rounded) return roundedCorner(rounded, { x, y, w, h, cx, cy }, light, fill, alpha);
  const width = (weight: number) => (weight === 2 ? light * 3 : light);
  const gap = light * 1.5; // half the distance between the two strokes of a double line
  const out: string[] = [];
  const [up, right, down, left] = [...arms].map(Number) as [number, number, number, number];
  const vertical = (weight: number, y0: number, y1: number) => {
    const t = width(weight) / 2;
    if (weight === 3) out.push(rect(cx - gap - t, y0, cx - gap + t, y1), rect(cx + gap - t, y0, cx + gap + t, y1));
    else if (weight > 0) out.push(rect(cx - t, y0, cx + t, y1));
  };
  const horizontal = (weight: number, x0: number, x1: number) => {
    const t = width(weight) / 2;
    if (weight === 3) out.push(rect(x0, cy - gap - t, x1, cy - gap + t), rect(x0, cy + gap - t, x1, cy + gap + t));
    else if (weight > 0) out.push(rect(x0, cy - t, x1, cy + t));
  };
  // Each arm runs from the cell edge to just past the centre, so arms of any weight join.
  const reachY = Math.max(width(left), width(right), left === 3 || right === 3 ? gap * 2 + light : 0) / 2;
  const reachX = Math.max(width(up), width(down), up === 3 || down === 3 ? gap * 2 + light : 0) / 2;
  vertical(up, y, cy + reachY);
  vertical(down, cy - reachY, y + h);
  horizontal(left, x, cx + reachX);
  horizontal(right, cx - reachX, x + w);
  return out.join("");
}

/**
 * A light rounded corner as xterm.js draws it: straight from each edge to a quarter circle of radius
 * half the cell width around the corner, stroked at the light line width so it joins ─ and │.
 */
function roundedCorner(
  [side, vertical]: ["left" | "right", "up" | "down"],
  cell: { x: number; y: number; w: number; h: number; cx: number; cy: number },
  light: number,
  fill: string,
  alpha: number,
): string {
  const { x, y, w, h, cx, cy } = cell;
  const r = Math.floor(w / 2);
  const edgeX = side === "right" ? x + w : x;
  const edgeY = vertical === "down" ? y + h : y;
  const arcX = side === "right" ? cx + r : cx - r;
  const arcY = vertical === "down" ? cy + r : cy - r;
  // Sweep flag: clockwise when turning from the horizontal arm to the vertical one goes clockwise.
  const sweep = (side === "right") === (vertical === "up") ? 1 : 0;
  const d = `M${fmt(edgeX)} ${fmt(cy)}H${fmt(arcX)}A${r} ${r} 0 0 ${sweep} ${fmt(cx)} ${fmt(arcY)}V${fmt(edgeY)}`;
  // Antialiased: a curve drawn with crisp edges flips whole pixels with its position on the page.
  return (
    `<path d="${d}" fill="none" stroke="${fill}" stroke-width="${light}" ` +
    `shape-rendering="geometricPrecision"` +
    `${alpha < 1 ? ` stroke-opacity="${alpha}"` : ""}/>`
  );
}

export function fmt(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, "");
}
