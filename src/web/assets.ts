/**
 * The viewer page and what it loads, imported with `type: "file"` so the compiled executable
 * embeds them (build.ts checks): @xterm/xterm's browser build and CSS, and our page and script.
 * Nothing is fetched from a CDN.
 */
import xtermCss from "@xterm/xterm/css/xterm.css" with { type: "file" };
import xtermJs from "@xterm/xterm/lib/xterm.js" with { type: "file" };
import viewerJs from "./page/viewer.js" with { type: "file" };
import { PAGE_TEMPLATE } from "./page/template.ts";

export const PAGE_ASSETS: Record<string, { file: string; type: string }> = {
  "/xterm.js": { file: xtermJs, type: "text/javascript; charset=utf-8" },
  "/xterm.css": { file: xtermCss, type: "text/css; charset=utf-8" },
  "/viewer.js": { file: viewerJs, type: "text/javascript; charset=utf-8" },
};

/** The page with the token in its asset URLs (the token is base64url, safe inside an attribute). */
export function pageHtml(token: string): string {
  return PAGE_TEMPLATE.replaceAll("{{TOKEN}}", token);
}
