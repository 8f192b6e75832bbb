/**
 * Real-browser tier: headless Debian Chromium driven by playwright-core opens the web viewer,
 * sees the live screen, takes control and types into the program, and is refused with a wrong
 * token or from another origin. Skips with a message when Chromium is absent (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN, fixture } from "../helpers.ts";
import { CHROMIUM, chromiumPresent } from "../chromium.ts";

// Code passed to page.evaluate runs in the browser; the server's tsconfig has no DOM lib.
declare const document: any, DataTransfer: any, ClipboardEvent: any;

const present = chromiumPresent("web viewer browser tests");
setDefaultTimeout(60_000);

/** Where the test leaves its picture of the page, for a person to look at. */
export const PAGE_SCREENSHOT = join(tmpdir(), "tui-tester-web-viewer.png");

describe.skipIf(!present)("web viewer in Chromium", () => {
  let c: TestClient;
  let browser: BrowserContext;
  let profile: string;
  beforeAll(async () => {
    c = await connect({ env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
    profile = mkdtempSync(join(tmpdir(), "tui-tester-chromium-"));
    // a fresh profile per run (playwright passes it as --user-data-dir)
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1100, height: 520 },
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await c?.[Symbol.asyncDispose]();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** The text of xterm.js's rendered rows. */
  const screenText = (page: Page) => page.locator(".xterm-rows").innerText();
  const waitScreen = (page: Page, text: string) =>
    page.waitForFunction((t) => document.querySelector(".xterm-rows")?.textContent?.includes(t) ?? false, text, {
      timeout: 15_000,
    });

  test("live screen, takeover typing, agent refused during takeover and accepted after release", async () => {
    const { sessionId } = await c.ok("start_session", {
      command: BUN,
      args: [fixture("echo-keys.ts")],
      name: "echo-keys",
      cols: 70,
      rows: 14,
    });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    const { url } = await c.ok("web_viewer", { sessionId });
    const page = await browser.newPage();
    await page.goto(url);
    await waitScreen(page, "READY");
    await expect(page.locator("#size").innerText()).resolves.toBe("70×14");

    // the agent types; the page shows it live
    await c.ok("send_text", { sessionId, text: "a", waitFor: { pattern: "KEY 61" } });
    await waitScreen(page, "KEY 61");

    await page.click("#take");
    await page.locator("#release").waitFor({ state: "visible" });
    const refused = await c.call("send_text", { sessionId, text: "b" });
    expect(refused.data.error.code).toBe("HUMAN_IN_CONTROL");
    await page.keyboard.type("h");
    await c.ok("wait_for_text", { sessionId, pattern: "KEY 68", errorOnTimeout: true, timeoutMs: 15_000 });
    await page.keyboard.press("Enter");
    await c.ok("wait_for_text", { sessionId, pattern: "KEY 0d", errorOnTimeout: true, timeoutMs: 15_000 });
    await waitScreen(page, "KEY 0d");
    expect(await screenText(page)).toContain("KEY 68");
    await page.screenshot({ path: PAGE_SCREENSHOT });

    // the human may fit the PTY to the window while holding control
    await page.click("#fit");
    await page.waitForFunction(() => document.querySelector("#size")?.textContent !== "70×14", undefined, {
      timeout: 15_000,
    });
    const resized = (await c.ok("list_sessions")).sessions.find((s: any) => s.sessionId === sessionId);
    expect(resized.cols).toBeGreaterThan(70);
    await expect(page.locator("#size").innerText()).resolves.toBe(`${resized.cols}×${resized.rows}`);

    await page.click("#release");
    await page.locator("#take").waitFor({ state: "visible" });
    await expect(page.locator("#take").isEnabled()).resolves.toBe(true);
    const accepted = await c.call("send_text", { sessionId, text: "c", waitFor: { pattern: "KEY 63" } });
    expect(accepted.isError).toBe(false);
    expect(accepted.data.humanInput).toMatchObject({ bytes: 2, writes: 2 });

    // exit is marked in the list and the header
    await c.ok("send_text", { sessionId, text: "q" });
    await page.waitForFunction(() => document.querySelector("#state")?.textContent?.startsWith("exited"), undefined, {
      timeout: 15_000,
    });
    await expect(page.locator("#take").isDisabled()).resolves.toBe(true);
    await page.close();
  });

  test("the page's terminal does not answer the app's queries a second time while a human types", async () => {
    // prints each input chunk as hex; "d" makes it ask for device attributes (CSI c)
    const app =
      "process.stdin.setRawMode(true); console.log('READY'); process.stdin.on('data', (d) => { process.stdout.write('KEY ' + d.toString('hex') + '\\r\\n'); if (d.toString() === 'd') process.stdout.write('\\x1b[c'); });";
    const { sessionId } = await c.ok("start_session", { command: BUN, args: ["-e", app] });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    const { url } = await c.ok("web_viewer", { sessionId });
    const page = await browser.newPage();
    await page.goto(url);
    await waitScreen(page, "READY");
    await page.click("#take");
    await page.locator("#release").waitFor({ state: "visible" });
    await page.keyboard.type("d");
    await c.ok("wait_for_text", { sessionId, pattern: "KEY 1b5b3f", errorOnTimeout: true, timeoutMs: 15_000 });
    await page.keyboard.type("z");
    await c.ok("wait_for_text", { sessionId, pattern: "KEY 7a", errorOnTimeout: true, timeoutMs: 15_000 });
    const text = (await c.ok("get_text", { sessionId })).text as string;
    expect(text.match(/KEY 1b5b3f/g)).toHaveLength(1); // the server's one DA reply, none from the page
    await page.close();
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
  });

  test("the human's mouse clicks and pastes reach the program in the modes it enabled", async () => {
    const mouse = await c.ok("start_session", {
      command: BUN,
      args: [fixture("mouse-app.ts"), "1000,1006"],
      cols: 60,
      rows: 16,
    });
    await c.ok("wait_for_text", { sessionId: mouse.sessionId, pattern: "READY" });
    const page = await browser.newPage();
    await page.goto((await c.ok("web_viewer", { sessionId: mouse.sessionId })).url);
    await waitScreen(page, "CLICK ME");
    await page.click("#take");
    await page.locator("#release").waitFor({ state: "visible" });
    // the middle of the cell at row 5, col 12 (0-based): "CLICK ME" starts at col 10
    const box = (await page.locator(".xterm-screen").boundingBox())!;
    await page.mouse.click(box.x + (12.5 * box.width) / 60, box.y + (5.5 * box.height) / 16);
    await c.ok("wait_for_text", {
      sessionId: mouse.sessionId,
      pattern: "EV 2 0;13;6 m",
      errorOnTimeout: true,
      timeoutMs: 15_000,
    });
    expect((await c.ok("get_text", { sessionId: mouse.sessionId })).text).toContain("EV 1 0;13;6 M");
    await page.click("#release");

    const paste = await c.ok("start_session", { command: BUN, args: [fixture("paste-app.ts"), "--bracketed"] });
    await c.ok("wait_for_text", { sessionId: paste.sessionId, pattern: "READY" });
    await page.click(`li[data-id="${paste.sessionId}"]`);
    await waitScreen(page, "bracketed=true");
    await page.click("#take");
    await page.locator("#release").waitFor({ state: "visible" });
    await page.evaluate(() => {
      const data = new DataTransfer();
      data.setData("text/plain", "hi");
      document
        .querySelector(".xterm-helper-textarea")!
        .dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
    });
    // ESC [200~ hi ESC [201~: the page's terminal follows the app's bracketed-paste mode
    await c.ok("wait_for_text", {
      sessionId: paste.sessionId,
      pattern: "IN 1b5b3230307e68691b5b3230317e",
      errorOnTimeout: true,
      timeoutMs: 15_000,
    });
    await page.close();
    for (const s of [mouse, paste]) await c.ok("stop_session", { sessionId: s.sessionId, signal: "SIGKILL" });
  });

  test("a wrong token gets no page and no socket; a page from another origin cannot connect even with the token", async () => {
    const { url } = await c.ok("web_viewer", {});
    const page = await browser.newPage();
    const wrong = await page.goto(url.replace(/token=[^#&]+/, "token=guessed"));
    expect(wrong?.status()).toBe(403);

    // another origin: a page served from a different port tries the real token
    const evil = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () => new Response("<!doctype html><title>evil</title>", { headers: { "Content-Type": "text/html" } }),
    });
    try {
      await page.goto(`http://127.0.0.1:${evil.port}/`);
      const target = new URL(url);
      const outcome = await page.evaluate(
        (wsUrl) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(wsUrl);
            ws.onopen = () => resolve("opened");
            ws.onerror = () => resolve("refused");
          }),
        `ws://${target.host}/ws?token=${target.searchParams.get("token")}`,
      );
      expect(outcome).toBe("refused");
    } finally {
      evil.stop(true);
      await page.close();
    }
  });
});
