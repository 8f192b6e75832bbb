/**
 * The compiled executable for this machine, built into a directory with no node_modules: recording,
 * PNG screenshots (resvg wasm and fonts from inside the binary), the web viewer's page assets, the
 * GIF export and the html report (asciinema-player and its page script from inside the binary).
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildTarget, hostTarget } from "../../build.ts";
import { connectStdio, type TestClient } from "../e2e/client.ts";
import { readCast } from "../record/cast.ts";
import { cellBackground, decodePng } from "./png.ts";

const target = hostTarget();
let dir = "";
let binary = "";
let c: TestClient | undefined;

beforeAll(async () => {
  if (!target) return;
  dir = await mkdtemp(join(tmpdir(), "tui-tester-artifacts-bin-"));
  binary = (await buildTarget(target, dir)).outfile;
  c = await connectStdio({ command: binary, args: [], cwd: dir, env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
}, 120_000);

afterAll(async () => {
  await c?.[Symbol.asyncDispose]();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!target)(`compiled ${target?.name ?? "host"} binary: artifacts`, () => {
  test("records a session and renders a PNG with the embedded rasteriser and fonts", async () => {
    const script = "process.stdout.write('\\x1b[42mGREEN\\x1b[0m binary\\r\\n'); setInterval(() => {}, 1000);";
    const started = await c!.ok("start_session", {
      command: process.execPath,
      args: ["-e", script],
      record: "bin.cast",
      cols: 40,
      rows: 8,
    });
    await c!.ok("wait_for_text", { sessionId: started.sessionId, pattern: "GREEN binary" });
    const shot = await c!.ok("screenshot", { sessionId: started.sessionId, path: "bin.png" });
    const png = decodePng(readFileSync(join(dir, "bin.png")));
    expect([png.width, png.height]).toEqual([shot.width, shot.height]);
    expect(cellBackground(png, 0, 0)).toBe("#00cd00");
    const stopped = await c!.ok("stop_recording", { sessionId: started.sessionId });
    expect(stopped.path).toBe(join(dir, "bin.cast"));
    const { header, events } = readCast(stopped.path);
    expect(header).toMatchObject({ version: 2, width: 40, height: 8 });
    expect(events.map(([, , d]) => d).join("")).toContain("GREEN");
  });

  test("serves the web viewer page with its bundled xterm.js", async () => {
    const { url } = await c!.ok("web_viewer", {});
    const page = new URL(url);
    expect((await fetch(url)).status).toBe(200);
    const token = page.searchParams.get("token");
    for (const asset of ["xterm.js", "xterm.css", "viewer.js", "mono.ttf", "player.js", "player.css", "playback.js"]) {
      const response = await fetch(`${page.origin}/${asset}?token=${token}`);
      expect(response.status).toBe(200);
      expect((await response.text()).length).toBeGreaterThan(100);
    }
  });

  test("tui-tester gif and an html report work from the binary alone", async () => {
    const cast = join(dir, "gif.cast");
    await Bun.write(
      cast,
      `${JSON.stringify({ version: 2, width: 20, height: 3 })}\n[0.1,"o","hi"]\n[0.3,"o"," there"]\n`,
    );
    const gif = Bun.spawnSync([binary, "gif", cast, join(dir, "out.gif")], { cwd: dir, stderr: "pipe" });
    expect(gif.exitCode).toBe(0);
    expect(gif.stderr.toString()).toContain("3 frames");
    const test = {
      name: "fails",
      session: { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ " } },
      steps: [{ type: "assert_text", pattern: "never", timeoutMs: 200 }],
    };
    await Bun.write(join(dir, "t.tui.json"), JSON.stringify(test));
    const run = Bun.spawnSync([binary, "test", "--reporter", "html", "t.tui.json"], { cwd: dir, stderr: "pipe" });
    expect(run.exitCode).toBe(1);
    const html = readFileSync(join(dir, "tui-tester-report", "index.html"), "utf8");
    expect(html).toContain("AsciinemaPlayer");
    expect(html).toContain("__tuiReport");
    expect(html).toContain('class="player"');
  });
});
