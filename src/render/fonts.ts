/**
 * The fonts a PNG is drawn with. Always: the bundled DejaVu faces and Noto Emoji (outline emoji).
 * Added when a picture needs them: CJK fonts found in the system's font directories (the ones
 * fontconfig reads), since a font covering CJK weighs 15-20 MB, too much to bundle; and always,
 * the files named in TUI_TESTER_FONTS. Each file is read once per process.
 */
import { readdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { log } from "../util/log.ts";
import { EMOJI_FONT_FILE, FONT_FILES } from "./assets.ts";

/** Where fontconfig (Linux, BSD) and macOS keep fonts. */
export function systemFontDirs(home = homedir()): string[] {
  return [
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    join(home, ".local/share/fonts"),
    join(home, ".fonts"),
    "/Library/Fonts",
    "/System/Library/Fonts",
    join(home, "Library/Fonts"),
  ];
}

/** Font files whose names say they cover CJK; sans before serif, regular before bold. */
const CJK_NAME = /cjk|wqy|droidsansfallback|sourcehan|han ?sans|notosans(sc|tc|jp|kr)|pingfang|hiragino|nanum|unifont/i;
/** Directory entries looked at while searching (bounded: a home directory can hold anything). */
const MAX_ENTRIES = 20_000;

export function findCjkFonts(dirs = systemFontDirs()): string[] {
  const found: string[] = [];
  let seen = 0;
  const walk = (dir: string, depth: number) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (++seen > MAX_ENTRIES) return;
      const path = join(dir, name);
      if (/\.(ttf|otf|ttc)$/i.test(name)) {
        if (CJK_NAME.test(name)) found.push(path);
      } else if (depth < 4 && statSync(path, { throwIfNoEntry: false })?.isDirectory()) walk(path, depth + 1);
    }
  };
  for (const dir of dirs) walk(dir, 0);
  const rank = (path: string) => (/serif/i.test(path) ? 2 : 0) + (/bold|light|thin|medium|black/i.test(path) ? 1 : 0);
  // One regular sans face is enough to draw the text; more would only cost memory.
  return found.sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).slice(0, 1);
}

/** Characters the bundled fonts do not draw: CJK ideographs, kana, hangul, fullwidth forms. */
const NEEDS_CJK =
  /[\u2e80-\u9fff\ua960-\ua97f\uac00-\ud7ff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]|[\u{20000}-\u{3ffff}]/u;

export function needsCjk(text: string): boolean {
  return NEEDS_CJK.test(text);
}

const cache = new Map<string, Promise<Uint8Array | undefined>>();

function readFont(file: string): Promise<Uint8Array | undefined> {
  let font = cache.get(file);
  if (!font) {
    font = Bun.file(file)
      .arrayBuffer()
      .then((buffer) => new Uint8Array(buffer))
      .catch((error: unknown) => {
        log(`font ${file} could not be read: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      });
    cache.set(file, font);
  }
  return font;
}

let cjkFiles: string[] | undefined;

const EMOJI = /[\u2600-\u27bf\u2b00-\u2bff]|[\u{1f000}-\u{1faff}]/u;

/**
 * The font files a picture of `svg` needs. resvg parses every font it is given on every render
 * (half the time of drawing a row of text), so faces the picture does not use are left out: the
 * same pixels, at half the cost for a typical frame of a GIF. `extra`: TUI_TESTER_FONTS, as config.ts parsed
 * and checked it, passed by whoever holds that Config.
 */
export function fontFilesFor(svg: string, extra: readonly string[] = []): string[] {
  const [regular, bold, oblique, boldOblique, sans] = FONT_FILES as [string, string, string, string, string];
  const isBold = svg.includes('font-weight="bold"');
  const isItalic = svg.includes('font-style="italic"');
  const files = [regular];
  if (isBold) files.push(bold);
  if (isItalic) files.push(oblique);
  if (isBold && isItalic) files.push(boldOblique);
  // Past ASCII the monospace face may lack a glyph (braille, symbols): DejaVu Sans has them.
  if (/[^\x00-\x7f]/.test(svg)) files.push(sans);
  if (EMOJI.test(svg)) files.push(EMOJI_FONT_FILE);
  files.push(...extra);
  if (needsCjk(svg)) files.push(...(cjkFiles ??= findCjkFonts()));
  return files;
}

/** The font buffers for a picture of `svg`. */
export async function fontsFor(svg: string, extra: readonly string[] = []): Promise<Uint8Array[]> {
  const files = fontFilesFor(svg, extra);
  const fonts = await Promise.all(files.map(readFont));
  return fonts.filter((font): font is Uint8Array => font !== undefined);
}
