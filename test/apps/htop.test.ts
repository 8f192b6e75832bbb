/** htop: an ncurses app in application cursor mode. F2 opens Setup, arrows move, F10 leaves, q quits. */
import { expect, test } from "bun:test";
import { launch, type Terminal } from "tui-tester";
import { describeApp } from "./helpers.ts";

/** The Setup category (column 0) drawn with a highlight background, once htop has finished drawing. */
async function highlightedCategory(t: Terminal): Promise<{ row: number; label: string }> {
  await t.waitForIdle({ idleMs: 100 });
  const categories = ["Display options", "Header layout", "Meters", "Screens", "Colors"];
  const { highlights } = await t.screen();
  const bar = highlights.find(
    (h) => h.startCol === 0 && h.kind === "background" && categories.some((c) => h.text.startsWith(c)),
  );
  return bar ? { row: bar.row, label: categories.find((c) => bar.text.startsWith(c))! } : { row: -1, label: "" };
}

describeApp("htop", () => {
  test("F2 opens Setup, arrows move the selection in application cursor mode, F10 leaves, q quits with 0", async () => {
    await using htop = await launch("htop", { cols: 120, rows: 40, env: { TERM: "xterm-256color" } });
    await htop.waitForText("Tasks:");
    await htop.waitForText("Load average");

    // htop (ncurses keypad mode) switches on DECCKM and the alternate screen
    expect(htop.modes()).toMatchObject({ applicationCursorKeys: true, altScreen: true });

    // "Setup" is already on screen in the F-key bar ("F2Setup"); wait for the Setup screen's own
    // text, top and bottom, since ncurses draws a screen in several writes
    const setup = await htop.press("F2", { waitFor: /Categories[\s\S]*F10Done/ });
    expect(setup.screen!.after!.text).toContain("Meters");
    const first = await highlightedCategory(htop);
    expect(first.label).toBe("Display options");

    // ncurses only knows the SS3 form of the arrows (terminfo kcud1=\EOB) in keypad mode; the
    // selection moving proves press() followed DECCKM.
    const moved = await htop.press("down", { waitFor: "Header Layout" });
    expect(moved.screen!.diff.identical).toBe(false);
    const second = await highlightedCategory(htop);
    expect(second).toEqual({ row: first.row + 1, label: "Header layout" });

    await htop.press("up", { waitFor: "For current screen tab" });
    expect((await highlightedCategory(htop)).label).toBe("Display options");

    const left = await htop.press("F10", { waitFor: "F2Setup" });
    expect(left.screen!.after!.text).not.toContain("Categories");

    await htop.press("q", { captureScreen: false });
    expect(await htop.waitForExit({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0, signal: null });
  });
});
