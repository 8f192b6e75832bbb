/**
 * The demo TUI's examples (demo.tui.json and demo-keys.tui.yaml) as a bun test written with the
 * library. Run with `bun test examples`; `bun test examples -u` rewrites the goldens in
 * __snapshots__/demo.test.ts/. The demo's spinner row changes every 100 ms: the snapshots leave
 * it out with a region or mask it.
 */
import { expect, test } from "bun:test";
import { launch } from "tui-tester";
import "tui-tester/expect";

const demo = (size = { cols: 80, rows: 24 }) =>
  launch("bun", { args: ["../scripts/demo-tui.ts"], cwd: import.meta.dir, ...size });

test("starts with the first item checked", async () => {
  await using t = await demo();
  await t.waitForText("READY");
  await expect(t).toShowText("1/6 selected");
  await expect(t).toMatchScreenSnapshot("start-list", { region: { row: 0, rows: 9 } });
  await expect(t).toMatchScreenSnapshot("start-title", { format: "ansi", region: { row: 0, rows: 1 } });
});

test("down and space check the second item", async () => {
  await using t = await demo();
  await t.waitForText("READY");
  const checked = await t.press(["down", "space"], { waitFor: "checked filesystem" });
  expect(checked.screen?.diff.changedLines.map((line) => line.row)).toContain(3);
  await expect(t).toShowText("2/6 selected");
  await expect(t).toHaveHighlight("> [x] filesystem");
  // the whole screen, with the spinner row masked
  await expect(t).toMatchScreenSnapshot("second-checked", { mask: [{ row: 9 }] });
});

test("a resize re-lays out the screen", async () => {
  await using t = await demo();
  await t.waitForText("READY");
  await t.resize(50, 12, { waitFor: "50x12" });
  await expect(t).toMatchScreenSnapshot("resized-status", { region: { row: 11 } });
});

test("up from the top wraps to the last item", async () => {
  await using t = await demo({ cols: 60, rows: 16 });
  await t.waitForText("READY");
  await t.press("up", { waitFor: "selected slack" });
  await expect(t).toMatchScreenSnapshot("wrapped-to-last", { region: { row: 2, rows: 6, cols: 40 } });
});

test("q quits and restores the main screen", async () => {
  await using t = await demo();
  await t.waitForText("READY");
  await t.press("q");
  expect(await t.waitForExit()).toMatchObject({ exitCode: 0 });
  await expect(t).not.toShowText("READY");
});
