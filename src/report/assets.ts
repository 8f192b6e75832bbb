/**
 * What the report page inlines, imported with `type: "file"` so the compiled executable embeds it:
 * asciinema-player (Apache-2.0; its terminal emulator is WebAssembly inlined in the script), its CSS,
 * the page's own script, and DejaVu Sans Mono so step pictures and the player draw the same glyphs.
 */
import playerCss from "asciinema-player/dist/bundle/asciinema-player.css" with { type: "file" };
import playerJs from "asciinema-player/dist/bundle/asciinema-player.min.js" with { type: "file" };
import pageJs from "./report-page.js" with { type: "file" };
import { FONT_FILES } from "../render/assets.ts";

export interface ReportAssets {
  playerJs: string;
  playerCss: string;
  pageJs: string;
  /** DejaVu Sans Mono regular and bold, base64. */
  fonts: { regular: string; bold: string };
}

let loaded: Promise<ReportAssets> | undefined;

export function reportAssets(): Promise<ReportAssets> {
  loaded ??= (async () => {
    const base64 = async (file: string) => Buffer.from(await Bun.file(file).arrayBuffer()).toString("base64");
    const [js, css, page, regular, bold] = await Promise.all([
      Bun.file(playerJs).text(),
      Bun.file(playerCss).text(),
      Bun.file(pageJs).text(),
      base64(FONT_FILES[0]!),
      base64(FONT_FILES[1]!),
    ]);
    return { playerJs: js, playerCss: css, pageJs: page, fonts: { regular, bold } };
  })();
  return loaded;
}
