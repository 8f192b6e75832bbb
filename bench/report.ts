#!/usr/bin/env bun
/**
 * Issue 21 targets: the html report (20 tests with recordings: size, opening time in headless
 * Chromium), the GIF of a 30 s vim session (size, time, every screen), SVG against PNG in Chromium
 * (htop, mc, ls -la: glyph positions and inked cells), CJK and emoji in a PNG.
 *
 *   bun bench/report.ts [--keep DIR]    # pictures are left in DIR (default a temp dir) to look at
 */
import { mkdirSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { parseCast, retime } from "../src/record/cast-file.ts";
import { castToGif } from "../src/render/gif.ts";
import { svgToPng } from "../src/render/png.ts";
import { replayFrames } from "../src/render/replay.ts";
import { CELL_HEIGHT, CELL_WIDTH, renderSvg } from "../src/render/svg.ts";
import { Emulator } from "../src/term/emulator.ts";
import { decodeGif, rgbaToPng } from "../test/render/gif-decode.ts";
import { decodePng } from "../test/render/png.ts";
import { connect } from "./client.ts";
import { recordVim } from "./vim-cast.ts";

declare const document: any, requestAnimationFrame: any;
const keep = process.argv.indexOf("--keep");
const out = keep > 0 ? process.argv[keep + 1]! : mkdtempSync(join(tmpdir(), "tui-tester-bench-report-"));
mkdirSync(out, { recursive: true });
const rows: { name: string; value: string; target: string; note?: string }[] = [];
const kib = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });

// --- html report: 20 tests, every one recorded (--trace on), 3 failing ---------------------------
{
  const dir = join(out, "report-run");
  mkdirSync(dir, { recursive: true });
  const session = { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ " }, cols: 100, rows: 30 };
  for (let i = 0; i < 20; i++) {
    const steps = [
      { type: "wait_for_text", pattern: "$" },
      {
        type: "send_text",
        text: "ls -la /usr/lib | head -20\r",
        waitFor: { pattern: "^\\$$", regex: true, regexFlags: "m" },
      }, // rows are trimmed
      {
        type: "send_text",
        text: `seq 1 ${30 + i}\r`,
        waitFor: { pattern: `^${30 + i}$`, regex: true, regexFlags: "m" },
      },
      { type: "assert_text", pattern: i % 7 === 3 ? "never-there" : String(30 + i) },
    ];
    await Bun.write(
      join(dir, `t${String(i).padStart(2, "0")}.tui.json`),
      JSON.stringify({ name: `test ${i}`, session, steps }),
    );
  }
  const started = performance.now();
  const proc = Bun.spawn(
    [
      process.execPath,
      join(import.meta.dir, "..", "src", "main.ts"),
      "test",
      "--reporter",
      "html",
      "--trace",
      "on",
      "-j",
      "2",
    ],
    { cwd: dir, stdout: "ignore", stderr: "pipe" },
  );
  await proc.exited;
  const runMs = performance.now() - started;
  const html = join(dir, "tui-tester-report", "index.html");
  const bytes = statSync(html).size;
  rows.push({
    name: "report: 20 tests, all recorded, size",
    value: kib(bytes),
    target: "< 5 MB",
    note: `run + report ${(runMs / 1000).toFixed(1)} s`,
  });
  const opens: number[] = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const t = performance.now();
    await page.goto(`file://${html}`, { waitUntil: "load" });
    // drawn: the next animation frame after load, with the players near the screen created
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    opens.push(performance.now() - t);
    if (i === 0) await page.screenshot({ path: join(out, "report-top.png") });
    await page.close();
  }
  opens.sort((a, b) => a - b);
  rows.push({
    name: "report: open in headless Chromium (load, first paint)",
    value: `${opens[2]!.toFixed(0)} ms median`,
    target: "< 1 s",
    note: `5 opens: ${opens.map((o) => o.toFixed(0)).join(", ")} ms`,
  });
}

// --- GIF of a 30 s vim session ---------------------------------------------------------------------
{
  const castPath = await recordVim(out);
  const cast = parseCast(await Bun.file(castPath).text());
  const times: number[] = [];
  let gif: Awaited<ReturnType<typeof castToGif>> | undefined;
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    gif = await castToGif(cast, { speed: 1, maxIdleMs: 2000, fps: 30, scale: 1 });
    times.push(performance.now() - t);
  }
  await Bun.write(join(out, "vim.gif"), gif!.gif);
  // every distinct screen the recording shows, event by event (no merging by frame rate)
  const screens = new Set<string>();
  for await (const frame of replayFrames(cast, retime(cast.events, { speed: 1, maxIdleMs: 2000 }), 0.001))
    screens.add(frame.key);
  const decoded = decodeGif(gif!.gif);
  await Bun.write(
    join(out, "vim-gif-last-frame.png"),
    rgbaToPng(decoded.frames.at(-1)!.rgba, decoded.width, decoded.height),
  );
  rows.push({
    name: `GIF: vim, ${(cast.durationMs / 1000).toFixed(0)} s recording`,
    value: kib(gif!.gif.length),
    target: "< 2 MB",
    note: `${gif!.frames} frames, ${decoded.width}x${decoded.height}`,
  });
  rows.push({
    name: "GIF: time to make (3 runs)",
    value: `${(Math.min(...times) / 1000).toFixed(1)} s best`,
    target: "< 10 s",
    note: times.map((t) => (t / 1000).toFixed(1)).join(", ") + " s",
  });
  rows.push({
    name: "GIF: distinct screens in the recording vs frames",
    value: `${screens.size} screens, ${gif!.frames} frames`,
    target: "every screen",
    note: "screens counted event by event; frames merge screens under 1/30 s",
  });
}

// --- SVG in Chromium against the PNG ---------------------------------------------------------------
{
  const c = await connect({ TUI_TESTER_OUTPUT_DIR: out });
  const apps: [string, Record<string, unknown>, string][] = [
    ["ls", { command: "bash", args: ["--norc", "--noprofile", "-c", "ls -la /usr/bin | head -28; sleep 60"] }, "total"],
    ["htop", { command: "htop", env: { TERM: "xterm-256color" } }, "Load average"],
    ["mc", { command: "mc", args: ["--nosubshell"], env: { TERM: "xterm-256color" } }, "Quit"],
  ];
  for (const [name, session, ready] of apps) {
    if (!Bun.which(String(session.command))) continue;
    const { sessionId } = await c.ok("start_session", { cols: 100, rows: 30, ...session });
    await c.ok("wait_for_text", { sessionId, pattern: ready, timeoutMs: 20_000 });
    await c.ok("wait_for_idle", { sessionId, idleMs: 400, timeoutMs: 20_000 });
    const svg = await c.ok("screenshot", { sessionId, format: "svg", path: join(out, `${name}.svg`), overwrite: true });
    const png = await c.ok("screenshot", { sessionId, format: "png", path: join(out, `${name}.png`), overwrite: true });
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
    const page = await browser.newPage({ viewport: { width: 100 * CELL_WIDTH, height: 30 * CELL_HEIGHT } });
    await page.goto(`file://${svg.path}`);
    const { chars, misplaced } = await page.evaluate((cell: number) => {
      let chars = 0;
      let misplaced = 0;
      for (const text of document.querySelectorAll("text")) {
        if (text.getAttribute("text-anchor") === "middle") continue;
        const x0 = Number(text.getAttribute("x"));
        for (let i = 0; i < text.getNumberOfChars(); i++, chars++)
          if (Math.abs(text.getStartPositionOfChar(i).x - (x0 + i * cell)) > 0.5) misplaced++;
      }
      return { chars, misplaced };
    }, CELL_WIDTH);
    await page.screenshot({ path: join(out, `${name}-chromium.png`) });
    await page.close();
    const a = decodePng(await Bun.file(join(out, `${name}-chromium.png`)).bytes());
    const b = decodePng(await Bun.file(png.path).bytes());
    let differ = 0;
    for (let r = 0; r < 30; r++)
      for (let col = 0; col < 100; col++) if (inked(a, r, col) !== inked(b, r, col)) differ++;
    rows.push({
      name: `SVG in Chromium vs PNG: ${name}`,
      value: `${misplaced} of ${chars} glyphs off their cell`,
      target: "0",
      note: `${differ} of 3000 cells differ in ink`,
    });
  }
  await c.close();
}

// --- CJK and emoji in a PNG ------------------------------------------------------------------------
{
  const emulator = new Emulator({ cols: 40, rows: 3, reply: () => undefined });
  emulator.write("\x1b[?25l中文 日本語 한국어\r\n🚀 🎉 ✅ 😀 👍\r\n╭──╮ ╰──╯");
  await emulator.flushed();
  const snap = emulator.snapshot({ grid: true });
  const { svg } = renderSvg({ cols: 40, rows: 3, cells: snap.grid!, cursor: snap.cursor }, emulator.liveColours());
  const t = performance.now();
  const { png } = await svgToPng(svg, 2);
  await Bun.write(join(out, "cjk-emoji.png"), png);
  const decoded = decodePng(png);
  const glyphCells = [0, 1, 2, 3].map((col) => inked(decoded, 0, col, 2)).filter(Boolean).length;
  rows.push({
    name: "PNG: CJK and emoji",
    value: `${glyphCells} of 4 CJK cells inked`,
    target: "glyphs, not boxes",
    note: `first render with the CJK font ${(performance.now() - t).toFixed(0)} ms; look at ${join(out, "cjk-emoji.png")}`,
  });
}
await browser.close();

function inked(png: ReturnType<typeof decodePng>, row: number, col: number, scale = 1): boolean {
  const bg = [png.data[0]!, png.data[1]!, png.data[2]!];
  for (let y = (row * CELL_HEIGHT + 1) * scale; y < ((row + 1) * CELL_HEIGHT - 1) * scale; y++) {
    for (let x = (col * CELL_WIDTH + 1) * scale; x < ((col + 1) * CELL_WIDTH - 1) * scale; x++) {
      const i = (y * png.width + x) * 4;
      if (
        Math.abs(png.data[i]! - bg[0]!) + Math.abs(png.data[i + 1]! - bg[1]!) + Math.abs(png.data[i + 2]! - bg[2]!) >
        120
      )
        return true;
    }
  }
  return false;
}

const width = Math.max(...rows.map((r) => r.name.length));
process.stderr.write(
  `\n${rows.map((r) => `${r.name.padEnd(width)}  ${r.value.padEnd(30)} target ${r.target.padEnd(18)} ${r.note ?? ""}`).join("\n")}\n\npictures in ${out}\n`,
);
