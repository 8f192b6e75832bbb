/**
 * SVG screenshots as a browser draws them: in headless Chromium every character of `ls -la` (and of
 * htop and mc where installed) sits at its cell's x, as in the PNG, and the cells with ink are the
 * PNG's. Runs of spaces used to collapse in browsers, running columns together.
 * Skips with a message when Chromium is absent (.ci/run installs it); htop and mc skip when absent.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { CELL_HEIGHT, CELL_WIDTH } from "../../src/render/svg.ts";
import { hasApp } from "../apps/helpers.ts";
import { connect, type TestClient } from "../e2e/client.ts";
import { decodePng, type Decoded } from "./png.ts";
import { chromiumPresent, launchChromium } from "../chromium.ts";

declare const document: any;

const present = chromiumPresent("SVG-in-browser tests");
setDefaultTimeout(90_000);

const dir = mkdtempSync(join(tmpdir(), "tui-tester-svg-browser-"));

/** Cells that hold ink: a pixel differing from the background's in the cell's inner area. */
function inkedCells(png: Decoded, cols: number, rows: number, scale: number): boolean[][] {
  const bg = [png.data[0]!, png.data[1]!, png.data[2]!];
  const grid: boolean[][] = [];
  for (let r = 0; r < rows; r++) {
    const row: boolean[] = [];
    for (let c = 0; c < cols; c++) {
      let inked = false;
      // 1 px in from each side, so a neighbour's antialiased edge does not count
      for (let y = (r * CELL_HEIGHT + 1) * scale; y < ((r + 1) * CELL_HEIGHT - 1) * scale && !inked; y++) {
        for (let x = (c * CELL_WIDTH + 1) * scale; x < ((c + 1) * CELL_WIDTH - 1) * scale; x++) {
          const i = (y * png.width + x) * 4;
          if (
            Math.abs(png.data[i]! - bg[0]!) +
              Math.abs(png.data[i + 1]! - bg[1]!) +
              Math.abs(png.data[i + 2]! - bg[2]!) >
            120
          ) {
            inked = true;
            break;
          }
        }
      }
      row.push(inked);
    }
    grid.push(row);
  }
  return grid;
}

describe.skipIf(!present)("SVG in Chromium matches the PNG", () => {
  let c: TestClient;
  let browser: Browser;
  beforeAll(async () => {
    c = await connect({ cwd: dir, env: { TUI_TESTER_OUTPUT_DIR: dir } });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await c?.[Symbol.asyncDispose]();
    rmSync(dir, { recursive: true, force: true });
  });

  async function compare(name: string, session: Record<string, unknown>, ready: string, keys?: string[]) {
    const { sessionId } = await c.ok("start_session", { cols: 100, rows: 30, ...session });
    await c.ok("wait_for_text", { sessionId, pattern: ready, timeoutMs: 20_000 });
    if (keys) await c.ok("send_keys", { sessionId, keys });
    await c.ok("wait_for_idle", { sessionId, idleMs: 400, timeoutMs: 20_000 });
    // htop redraws every second: the PNG and SVG are taken back to back, the comparison is per picture
    const svg = await c.ok("screenshot", { sessionId, format: "svg", path: `${name}.svg` });
    const png = decodePng(
      await Bun.file(
        (await c.ok("screenshot", { sessionId, format: "png", path: `${name}.png`, scale: 2 })).path,
      ).bytes(),
    );
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
    const page = await browser.newPage({
      viewport: { width: 100 * CELL_WIDTH, height: 30 * CELL_HEIGHT },
      deviceScaleFactor: 2,
    });
    await page.goto(`file://${svg.path}`);
    // every character's x in Chromium, against its cell (x attribute + index * cell width)
    const misplaced: string[] = await page.evaluate((cell: number) => {
      const out: string[] = [];
      for (const text of document.querySelectorAll("text")) {
        if (text.getAttribute("text-anchor") === "middle") continue; // wide characters are centred on their two cells
        const x0 = Number(text.getAttribute("x"));
        const n = text.getNumberOfChars();
        for (let i = 0; i < n; i++) {
          const x = text.getStartPositionOfChar(i).x;
          if (Math.abs(x - (x0 + i * cell)) > 0.5)
            out.push(`"${text.textContent.slice(i, i + 8)}" at ${x}, cell ${x0 + i * cell}`);
        }
      }
      return out;
    }, CELL_WIDTH);
    expect(misplaced.slice(0, 5)).toEqual([]);
    const drawn = decodePng(await page.screenshot({ type: "png" }));
    await page.close();
    const inBrowser = inkedCells(drawn, 100, 30, 2);
    const inPng = inkedCells(png, 100, 30, 2);
    const differ: string[] = [];
    inPng.forEach((row, r) => row.forEach((ink, col) => ink !== inBrowser[r]![col] && differ.push(`${r},${col}`)));
    // a stray antialiased pixel may tip a cell; columns running together would tip hundreds
    expect(differ.length).toBeLessThanOrEqual(3);
  }

  test("ls -la", () =>
    compare(
      "ls",
      { command: "bash", args: ["--norc", "--noprofile", "-c", "ls -la /usr/bin | head -25; sleep 60"] },
      "total",
    ));
  test.skipIf(!hasApp("htop"))("htop", () =>
    compare("htop", { command: "htop", env: { TERM: "xterm-256color" } }, "Load average"),
  );
  test.skipIf(!hasApp("mc"))("mc", () =>
    compare("mc", { command: "mc", args: ["--nosubshell"], env: { TERM: "xterm-256color" } }, "Quit"),
  );
});
