/**
 * Files the renderer needs at run time, imported with `type: "file"` so `bun build --compile`
 * embeds them in the executable (build.ts checks that they are there, byte for byte).
 * DejaVu Sans Mono: Bitstream Vera licence (free to use, embed and redistribute).
 * Noto Emoji (monochrome, SIL Open Font Licence): emoji as outlines in the text colour, 0.9 MB.
 * resvg cannot draw colour-bitmap emoji fonts (Noto Color Emoji is CBDT), so an outline font it is.
 */
import resvgWasm from "@resvg/resvg-wasm/index_bg.wasm" with { type: "file" };
import monoRegular from "dejavu-fonts-ttf/ttf/DejaVuSansMono.ttf" with { type: "file" };
import monoBold from "dejavu-fonts-ttf/ttf/DejaVuSansMono-Bold.ttf" with { type: "file" };
import monoOblique from "dejavu-fonts-ttf/ttf/DejaVuSansMono-Oblique.ttf" with { type: "file" };
import monoBoldOblique from "dejavu-fonts-ttf/ttf/DejaVuSansMono-BoldOblique.ttf" with { type: "file" };
// Fallback for what the monospace face lacks, e.g. the braille spinners many TUIs draw (U+2800..U+28FF).
import sansFallback from "dejavu-fonts-ttf/ttf/DejaVuSans.ttf" with { type: "file" };
import emoji from "@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf" with { type: "file" };

export const RESVG_WASM: string = resvgWasm;
export const FONT_FILES: string[] = [monoRegular, monoBold, monoOblique, monoBoldOblique, sansFallback];
export const EMOJI_FONT_FILE: string = emoji;
