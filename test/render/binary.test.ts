/**
 * The compiled executable for this machine, built into a directory with no node_modules: recording,
 * PNG screenshots (resvg wasm and fonts from inside the binary) and the web viewer's page assets.
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
let c: TestClient | undefined;

beforeAll(async () => {
  if (!target) return;
  dir = await mkdtemp(join(tmpdir(), "tui-tester-artifacts-bin-"));
  const binary = (await buildTarget(target, dir)).outfile;
  c = await connectStdio({ command: binary, args: [], cwd: dir, env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
}, 120_000);

afterAll(async () => {
  await c?.[Symbol.asyncDispose]();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!target)(`compiled ${target?.name ?? "host"} binary: artifacts`, () => {
  test("records a session and renders a PNG with the embedded rasteriser and fonts", async () => {
    const script = "process.stdout.write('\\x1b[42mGREEN\\x1b[0m binary\\r\\n'); setInterval(() => {}, 1000);";
    const started = await c!.ok("start_session", { command: process.execPath, args: ["-e", script], record: "bin.cast", cols: 40, rows: 8 });
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
    for (const asset of ["xterm.js", "xterm.css", "viewer.js", "mono.ttf"]) {
      const response = await fetch(`${page.origin}/${asset}?token=${token}`);
      expect(response.status).toBe(200);
      expect((await response.text()).length).toBeGreaterThan(100);
    }
  });
});
