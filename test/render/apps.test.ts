/** Screenshots of real apps (vim, htop) and the demo TUI: colours where the app put them. Skips when an app is absent. */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeApp, inputUntil, useServer, waitText } from "../apps/helpers.ts";
import { BUN } from "../helpers.ts";
import { cellBackground, cellColours, decodePng } from "./png.ts";

const shoot = async (h: ReturnType<typeof useServer>, sessionId: string, name: string) => {
  const shot = await h.c.ok("screenshot", { sessionId, path: join(h.tempDir(), name) });
  return decodePng(readFileSync(shot.path));
};

describeApp("vim", () => {
  const h = useServer();
  test("vim: the ~ filler lines are blue, typed text is drawn, the cursor block sits after it", async () => {
    const { sessionId } = await h.start({
      command: "vim",
      args: ["-u", "NONE", "-N", "-n", "+syntax on"],
      cwd: h.tempDir(),
      cols: 80,
      rows: 24,
    });
    await waitText(h.c, sessionId, "VIM - Vi IMproved");
    await inputUntil(h.c, "send_text", { sessionId, text: "iW" }, "-- INSERT --");
    const png = await shoot(h, sessionId, "vim.png");
    // vim -u NONE draws the NonText "~" in blue (anti-aliased: count the bluish pixels)
    const bluish = [...cellColours(png, 1, 0)]
      .filter(([c]) => Number.parseInt(c.slice(5, 7), 16) > 150 && Number.parseInt(c.slice(1, 3), 16) < 120)
      .reduce((n, [, k]) => n + k, 0);
    expect(bluish).toBeGreaterThan(3);
    expect(cellColours(png, 0, 0).get("#e5e5e5") ?? 0).toBeGreaterThan(10);
    expect(cellBackground(png, 0, 1)).toBe("#e5e5e5"); // block cursor after the W
  });
});

describeApp("htop", () => {
  const h = useServer();
  test("htop: the function-key bar has its coloured labels", async () => {
    const { sessionId } = await h.start({ command: "htop", cols: 100, rows: 30, env: { TERM: "xterm-256color" } });
    await waitText(h.c, sessionId, "F10Quit");
    await waitText(h.c, sessionId, "Load average");
    const png = await shoot(h, sessionId, "htop.png");
    // "F1Help ..." on the last row: the key names on black, the labels on cyan
    expect(cellBackground(png, 29, 3)).toBe("#00cdcd");
  });
});

test("demo TUI: inverse title bar and selected row", async () => {
  const { connect } = await import("../e2e/client.ts");
  const c = await connect();
  try {
    const { sessionId } = await c.ok("start_session", {
      command: BUN,
      args: [join(import.meta.dir, "..", "..", "scripts", "demo-tui.ts")],
      cols: 60,
      rows: 14,
    });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    const dir = mkdtempSync(join(tmpdir(), "tui-tester-demo-shot-"));
    const shot = await c.ok("screenshot", { sessionId, path: join(dir, "demo.png") });
    const png = decodePng(readFileSync(shot.path));
    expect(cellBackground(png, 0, 30)).toBe("#e5e5e5"); // inverse title bar across the width
    expect(cellBackground(png, 2, 10)).toBe("#e5e5e5"); // selected item
    expect(cellBackground(png, 3, 10)).toBe("#000000");
    await c.ok("stop_session", { sessionId });
    rmSync(dir, { recursive: true, force: true });
  } finally {
    await c[Symbol.asyncDispose]();
  }
});
