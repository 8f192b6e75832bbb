/**
 * The visible viewer for real: Xvfb as the display, Debian's xterm (via x-terminal-emulator when
 * that is an xterm) as the window, ImageMagick's `import` for a screenshot. Skips with a message
 * when those are missing; `.ci/run` installs them.
 *
 * TUI_TESTER_SCREENSHOT_DIR=/some/dir keeps the screenshots there for a human to look at.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SessionRegistry } from "../../src/session/registry.ts";
import { ViewerManager } from "../../src/viewer/manager.ts";
import { until } from "../helpers.ts";

const needed = ["Xvfb", "xterm", "import", "xwininfo"];
const missing = process.platform === "linux" ? needed.filter((name) => Bun.which(name) === null) : ["Linux"];
if (missing.length > 0)
  console.warn(
    `skipping the Xvfb viewer test: ${missing.join(", ")} not available; .ci/run installs xvfb xterm imagemagick x11-utils with apt-get`,
  );

const TITLE = "tui-tester: viewer-test";
let xvfb: ReturnType<typeof Bun.spawn> | undefined;
let display = "";
const keepDir = process.env.TUI_TESTER_SCREENSHOT_DIR;
const shots = keepDir ?? mkdtempSync(join(tmpdir(), "viewer-xvfb-"));
mkdirSync(shots, { recursive: true });

function xenv(): Record<string, string | undefined> {
  return { ...process.env, DISPLAY: display };
}

function run(argv: string[]): { ok: boolean; out: string } {
  const result = Bun.spawnSync(argv, { env: xenv(), stdio: ["ignore", "pipe", "pipe"] });
  return { ok: result.exitCode === 0, out: result.stdout.toString() };
}

/** Lines of `xwininfo -root -tree` naming our window, e.g. `0x20000c "tui-tester: viewer-test": ("xterm" "UXTerm") 484x316+0+0`. */
function viewerWindows(): string[] {
  return run(["xwininfo", "-root", "-tree"])
    .out.split("\n")
    .filter((line) => line.includes(`"${TITLE}"`));
}

/** pids whose command line mentions `needle` (the viewer directory: the terminal's argv and the reader's). */
function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "latin1").includes(needle)) pids.push(Number(entry));
    } catch {
      // gone while we looked
    }
  }
  return pids;
}

/** Start Xvfb on a display nobody uses; a clash makes Xvfb exit, so try a few. */
async function startXvfb(): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const n = 99 + Math.floor(Math.random() * 400);
    if (existsSync(`/tmp/.X${n}-lock`) || existsSync(`/tmp/.X11-unix/X${n}`)) continue;
    display = `:${n}`;
    const proc = Bun.spawn(["Xvfb", display, "-screen", "0", "1280x800x24", "-nolisten", "tcp"], {
      stdio: ["ignore", "ignore", "ignore"],
    });
    const deadline = performance.now() + 10_000;
    while (proc.exitCode === null && performance.now() < deadline) {
      if (run(["xwininfo", "-root"]).ok) {
        xvfb = proc;
        return;
      }
      await Bun.sleep(50);
    }
    proc.kill("SIGKILL");
  }
  throw new Error("could not start Xvfb on a free display");
}

beforeAll(async () => {
  if (missing.length === 0) await startXvfb();
});

afterAll(async () => {
  xvfb?.kill("SIGTERM");
  await xvfb?.exited;
  if (keepDir === undefined) rmSync(shots, { recursive: true, force: true });
});

test.skipIf(missing.length > 0)(
  "visible session under Xvfb: window appears, mirrors typing, and is cleaned up on stop",
  async () => {
    const registry = new SessionRegistry();
    const viewers = new ViewerManager({ env: xenv() });
    try {
      const session = await registry.start({
        command: "bash",
        args: ["--norc", "--noprofile"],
        cols: 80,
        rows: 24,
        term: "xterm-256color",
        name: "viewer-test",
        env: { PS1: "$ " },
      });
      await until(() => session.emulator.text().includes("$"), "the prompt");
      const status = await viewers.open(session);
      const fifo = status.fifo ?? "";
      expect({ ...status, fifo: typeof status.fifo }).toEqual({
        requested: true,
        open: true,
        terminal: status.terminal,
        fifo: "string",
      });
      expect(["x-terminal-emulator", "xterm"]).toContain(status.terminal!);
      const dir = dirname(fifo);
      expect(statSync(dir).mode & 0o777).toBe(0o700);

      await until(() => viewerWindows().length === 1, `a window titled "${TITLE}"`, 15_000);
      expect(viewerWindows()[0]).toMatch(/\d+x\d+\+\d+\+\d+/);
      expect(processesMentioning(dir).length).toBeGreaterThan(0);

      session.write(new TextEncoder().encode("echo hello-viewer\r"));
      await until(() => /^hello-viewer$/m.test(session.emulator.text()), "the echo in the session");
      // The pixels are the only sign xterm has drawn the bytes; give it a moment to render them.
      await Bun.sleep(500);

      const rootShot = join(shots, "viewer-root.png");
      const windowId = viewerWindows()[0]!.trim().split(/\s+/)[0]!;
      const windowShot = join(shots, "viewer-window.png");
      expect(run(["import", "-window", "root", rootShot]).ok).toBe(true);
      expect(run(["import", "-window", windowId, windowShot]).ok).toBe(true);
      expect(statSync(rootShot).size).toBeGreaterThan(0);
      expect(readFileSync(rootShot).subarray(1, 4).toString()).toBe("PNG");
      // something is drawn in the window: it is not one flat colour
      const spread = Number(run(["convert", windowShot, "-format", "%[fx:standard_deviation]", "info:"]).out);
      // ImageMagick's import ran above, so its convert is here too: the spread is a number
      expect(spread).toBeGreaterThan(0);

      await registry.stop(session.id, "SIGKILL");
      await until(() => !existsSync(fifo) && !existsSync(dir), "the FIFO and its directory to be removed");
      await until(() => processesMentioning(dir).length === 0, "the xterm and its reader to exit");
      await until(() => viewerWindows().length === 0, "the window to close");
    } finally {
      await viewers.closeAll();
      await registry.shutdown(200);
    }
  },
);
