/**
 * The web viewer plays its sessions' recordings with asciinema-player (the html report's player):
 * the list shows each recording, a click plays it, "Back to live" returns to the live screen; a
 * recording is fetched by session and index only, with the token. Chromium tier: skips with a
 * message when Chromium is absent (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN, fixture } from "../helpers.ts";
import { chromiumPresent, launchChromium } from "../chromium.ts";

declare const window: any, document: any;

const present = chromiumPresent("web viewer playback tests");
setDefaultTimeout(60_000);

/** Where the test leaves its picture of the viewer playing a recording, for a person to look at. */
export const PLAYBACK_SCREENSHOT = join(tmpdir(), "tui-tester-web-playback.png");

const dir = mkdtempSync(join(tmpdir(), "tui-tester-playback-"));
let c: TestClient;
beforeAll(async () => {
  c = await connect({ cwd: dir, env: { TUI_TESTER_OUTPUT_DIR: dir, DISPLAY: "", WAYLAND_DISPLAY: "" } });
});
afterAll(async () => {
  await c?.[Symbol.asyncDispose]();
  rmSync(dir, { recursive: true, force: true });
});

test("a recording is served by session and index with the token, and by nothing else", async () => {
  const { sessionId } = await c.ok("start_session", { command: BUN, args: [fixture("echo-keys.ts")], record: true });
  await c.ok("wait_for_text", { sessionId, pattern: "READY" });
  const { url } = await c.ok("web_viewer", { sessionId });
  const base = new URL(url);
  const get = (query: string) => fetch(`${base.origin}/recording?${query}`);
  const token = base.searchParams.get("token")!;
  const ok = await get(`token=${token}&session=${sessionId}&n=0`);
  expect(ok.status).toBe(200);
  expect((await ok.text()).split("\n")[0]).toContain('"version":2');
  expect((await get(`session=${sessionId}&n=0`)).status).toBe(403);
  expect((await get(`token=${token}&session=${sessionId}&n=5`)).status).toBe(404);
  expect((await get(`token=${token}&session=nope&n=0`)).status).toBe(404);
  await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
});

describe.skipIf(!present)("web viewer playback in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  test("the session's recording is listed and plays with asciinema-player; Back to live returns", async () => {
    const { sessionId } = await c.ok("start_session", {
      command: BUN,
      args: [fixture("echo-keys.ts")],
      name: "recorded",
      cols: 60,
      rows: 12,
      record: "played.cast",
    });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    await c.ok("send_text", { sessionId, text: "hi", waitFor: { pattern: "KEY 6869" } });
    await c.ok("stop_recording", { sessionId });
    const { url } = await c.ok("web_viewer", { sessionId });
    const page = await browser.newPage({ viewport: { width: 1100, height: 560 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(url);
    const button = page.locator(".recordings button", { hasText: "played.cast" });
    await button.waitFor({ timeout: 15_000 });
    await button.click();
    await page.waitForFunction(() => window.__tuiPlayer !== undefined, undefined, { timeout: 15_000 });
    await page.waitForFunction(() => window.__tuiPlayer.getCurrentTime() > 0, undefined, { timeout: 15_000 });
    expect(await page.locator("#screen").isHidden()).toBe(true);
    // the player reaches the end of the recording: its terminal shows the typed keys
    await page.evaluate(() => window.__tuiPlayer.seek("100%"));
    await page.waitForFunction(
      () => document.querySelector("#player")?.textContent?.includes("KEY 6869") ?? false,
      undefined,
      { timeout: 15_000 },
    );
    await page.screenshot({ path: PLAYBACK_SCREENSHOT });
    await page.locator("#playback-close").click();
    expect(await page.locator("#screen").isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
  });
});
