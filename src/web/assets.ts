/**
 * The viewer page and what it loads, imported with `type: "file"` so the compiled executable
 * embeds them (build.ts checks): @xterm/xterm's browser build and CSS, our page script, and the
 * renderer's DejaVu Sans Mono as a web font.
 * Nothing is fetched from a CDN.
 */
import xtermCss from "@xterm/xterm/css/xterm.css" with { type: "file" };
import xtermJs from "@xterm/xterm/lib/xterm.js" with { type: "file" };
import viewerJs from "./page/viewer.js" with { type: "file" };
import playbackJs from "./page/playback.js" with { type: "file" };
// The player the html report uses too (src/report/assets.ts), for recordings of the viewer's sessions.
import playerCss from "asciinema-player/dist/bundle/asciinema-player.css" with { type: "file" };
import playerJs from "asciinema-player/dist/bundle/asciinema-player.min.js" with { type: "file" };
import { FONT_FILES } from "../render/assets.ts";
import { PAGE_TEMPLATE } from "./page/template.ts";

export const PAGE_ASSETS: Record<string, { file: string; type: string }> = {
  "/xterm.js": { file: xtermJs, type: "text/javascript; charset=utf-8" },
  "/xterm.css": { file: xtermCss, type: "text/css; charset=utf-8" },
  "/viewer.js": { file: viewerJs, type: "text/javascript; charset=utf-8" },
  "/playback.js": { file: playbackJs, type: "text/javascript; charset=utf-8" },
  "/player.js": { file: playerJs, type: "text/javascript; charset=utf-8" },
  "/player.css": { file: playerCss, type: "text/css; charset=utf-8" },
  // The screenshot font, so the page looks the same in every browser (and underscores are not clipped).
  "/mono.ttf": { file: FONT_FILES[0]!, type: "font/ttf" },
  "/mono-bold.ttf": { file: FONT_FILES[1]!, type: "font/ttf" },
};

/** The page with the token in its asset URLs (the token is base64url, safe inside an attribute). */
export function pageHtml(token: string): string {
  return PAGE_TEMPLATE.replaceAll("{{TOKEN}}", token);
}
