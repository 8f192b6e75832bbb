/**
 * The html report in headless Chromium: it opens from file:// with no network, lists every test,
 * shows the failing step with its error and screen, the recording plays, and a step's marker seeks
 * the player to the step's end. Also a unit check of the report without a browser (escaping, size).
 * The browser part skips with a message when Chromium is absent (.ci/run installs it).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { bash, runCli, scratch, shellSteps } from "../cli/cli-helpers.ts";
import { chromiumPresent, launchChromium } from "../chromium.ts";

declare const window: any, document: any;

const present = chromiumPresent("html report browser tests");
setDefaultTimeout(120_000);

/** Where the test leaves its picture of the report, for a person to look at. */
export const REPORT_SCREENSHOT = join(tmpdir(), "tui-tester-html-report.png");

let s: Awaited<ReturnType<typeof scratch>>;
let run: Awaited<ReturnType<typeof runCli>>;
beforeAll(async () => {
  s = await scratch();
  await s.write("pass.tui.json", [
    {
      name: "echo <b>works</b>",
      session: bash(),
      steps: [
        ...shellSteps("echo $((6*7))", "42"),
        { type: "send_text", text: "echo done\r", waitFor: { pattern: "^done$", regex: true, regexFlags: "m" } },
      ],
    },
    { name: "skipped one", session: bash(), steps: [{ type: "wait_for_text", pattern: "t$" }], skip: true },
  ]);
  await s.write("fail.tui.json", {
    name: "fails at the third step",
    session: bash(),
    steps: [
      ...shellSteps("echo hello", "hello"),
      { type: "assert_text", pattern: "goodbye", label: "expects goodbye", timeoutMs: 200 },
      { type: "send_text", text: "exit\r" },
    ],
  });
  run = await runCli(["--reporter", "html", "--reporter", "junit", "--trace", "on", "--report-dir", "out"], {
    cwd: s.dir,
  });
});
afterAll(() => s?.[Symbol.asyncDispose]());

describe("html report file", () => {
  test("written with every test, escaped, self-contained, with recordings and step pictures", async () => {
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("HTML report: out/index.html");
    const html = await Bun.file(join(s.dir, "out", "index.html")).text();
    expect(html).toContain("echo &lt;b&gt;works&lt;/b&gt;");
    expect(html).not.toContain("<b>works</b>");
    expect(html).toContain("fails at the third step");
    expect(html).toContain("skipped one");
    // no network: no external URL is referenced by src or href
    expect(html.match(/(src|href)="(https?:)?\/\//g)).toBeNull();
    expect(html).toContain("AsciinemaPlayer");
    expect(html.match(/<svg /g)!.length).toBeGreaterThanOrEqual(5);
    // the screen after each step comes from the recording at that step's end: after the echo, its output
    const failing = html.slice(html.indexOf('<section class="test failed"'));
    const afterEcho = failing.slice(
      failing.indexOf('<li class="step passed" data-marker="1"'),
      failing.indexOf('data-marker="2"'),
    );
    expect(afterEcho).toContain(">hello</text>");
    expect(afterEcho).toContain("3 row(s) changed");
    expect(existsSync(join(s.dir, "out", "junit.xml"))).toBe(true);
    expect(existsSync(join(s.dir, "out", "recordings"))).toBe(true);
  });

  test("--trace retain-on-failure keeps only the failed test's recording; --trace off none", async () => {
    const kept = await runCli(["--reporter", "html", "--report-dir", "kept"], { cwd: s.dir });
    expect(kept.code).toBe(1);
    const html = await Bun.file(join(s.dir, "kept", "index.html")).text();
    expect(html.match(/class="player"/g)?.length).toBe(1);
    const off = await runCli(["--reporter", "html", "--report-dir", "off", "--trace", "off"], { cwd: s.dir });
    expect(await Bun.file(join(s.dir, "off", "index.html")).text()).not.toContain('class="player"');
    expect(off.code).toBe(1);
    const bad = await runCli(["--reporter", "pdf"], { cwd: s.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("list, html, junit, json");
  });
});

describe.skipIf(!present)("html report in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  test("shows every test and the failing step; the player plays and its step markers seek", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    // Any request that leaves the file is a failure: the report must be self-contained.
    const requests: string[] = [];
    context.on(
      "request",
      (r) => void (r.url().startsWith("file:") || r.url().startsWith("data:") || requests.push(r.url())),
    );
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.goto(`file://${join(s.dir, "out", "index.html")}`);
    const rows = await page.locator("table.tests tbody tr").allInnerTexts();
    expect(rows.length).toBe(3);
    expect(rows.join("\n")).toContain("echo <b>works</b>");
    expect(rows.join("\n")).toContain("skipped");
    const failed = page.locator("section.failed li.step.failed");
    expect(await failed.count()).toBe(1);
    expect(await failed.innerText()).toContain("expects goodbye");
    expect(await failed.innerText()).toContain('"goodbye" is not on the screen');
    expect(await page.locator("section.failed .screen.final svg").count()).toBe(1);

    // play: time moves
    const id = (await page.locator("section.failed").getAttribute("id"))!;
    await page.evaluate((id) => window.__tuiReport.ensurePlayer(id).play(), id);
    await page.waitForFunction((id) => window.__tuiReport.players[id].getCurrentTime() > 0, id, { timeout: 30_000 });
    await page.evaluate((id) => window.__tuiReport.players[id].pause(), id);
    // a step's marker: clicking the step seeks to its time
    const markers: [number, string][] = await page.evaluate(
      (id) => JSON.parse(document.getElementById(`cast-${id}`).textContent).markers,
      id,
    );
    expect(markers.length).toBe(3); // the steps that ran
    const second = page.locator(`#${id} li.step[data-marker="1"] .step-head`);
    await second.click();
    await page.waitForFunction(
      ([id, at]) => Math.abs(window.__tuiReport.players[id].getCurrentTime() - at) < 0.05,
      [id, markers[1]![0]] as const,
      { timeout: 10_000 },
    );
    expect(await page.locator(`#${id} li.step.current`).getAttribute("data-marker")).toBe("1");
    await page.locator(`#${id}`).screenshot({ path: REPORT_SCREENSHOT });
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await context.close();
  });
});
