/** htop: an ncurses app in application cursor mode. F2 opens Setup, arrows move, F10 leaves, q quits. */
import { expect, test } from "bun:test";
import { describeApp, exitInfo, inputUntil, sessionModes, useServer, waitText } from "./helpers.ts";

/** Row of the Setup category list (column 0) drawn with a highlight background, or -1. */
function highlightedCategory(snapshot: { lines: string[]; cells: { rows: { col: number; bg?: string }[][] } }): { row: number; label: string } {
  const categories = ["Display options", "Header layout", "Meters", "Screens", "Colors"];
  for (const [row, line] of snapshot.lines.entries()) {
    const label = categories.find((name) => line.startsWith(name));
    const first = snapshot.cells.rows[row]?.[0];
    if (label && first?.col === 0 && first.bg !== undefined) return { row, label };
  }
  return { row: -1, label: "" };
}

describeApp("htop", () => {
  const h = useServer();

  test("F2 opens Setup, arrows move the selection in application cursor mode, F10 leaves, q quits with 0", async () => {
    const { sessionId } = await h.start({ command: "htop", cols: 120, rows: 40, env: { TERM: "xterm-256color" } });
    await waitText(h.c, sessionId, "Tasks:");
    await waitText(h.c, sessionId, "Load average");

    // htop (ncurses keypad mode) switches on DECCKM and the alternate screen
    const modes = await sessionModes(h.c, sessionId);
    expect(modes.applicationCursorKeys).toBe(true);
    expect(modes.altScreen).toBe(true);

    // "Setup" is already on screen in the F-key bar ("F2Setup"); wait for the Setup screen's own
    // text, top and bottom, since ncurses draws a screen in several writes
    const setup = await inputUntil(h.c, "send_keys", { sessionId, keys: "F2" }, "Categories[\\s\\S]*F10Done", { regex: true });
    expect(setup.screen.after.text).toContain("Meters");
    expect(setup.screen.after.text).toContain("F10Done");

    // the highlight is an attribute, not text: read it once htop has finished drawing
    await h.c.ok("wait_for_idle", { sessionId, idleMs: 100 });
    const before = await h.c.ok("snapshot", { sessionId, format: "cells" });
    const first = highlightedCategory(before as never);
    expect(first.label).toBe("Display options");

    // ncurses only knows the SS3 form of the arrows (terminfo kcud1=\EOB) in keypad mode; the
    // selection moving proves send_keys followed DECCKM.
    const moved = await h.c.ok("send_keys", { sessionId, keys: "down", waitFor: { pattern: "Header Layout", errorOnTimeout: true } });
    expect(moved.screen.diff.identical).toBe(false);
    await h.c.ok("wait_for_idle", { sessionId, idleMs: 100 });
    const after = await h.c.ok("snapshot", { sessionId, format: "cells" });
    const second = highlightedCategory(after as never);
    expect(second.label).toBe("Header layout");
    expect(second.row).toBe(first.row + 1);

    await inputUntil(h.c, "send_keys", { sessionId, keys: "up" }, "For current screen tab");
    await h.c.ok("wait_for_idle", { sessionId, idleMs: 100 });
    expect(highlightedCategory((await h.c.ok("snapshot", { sessionId, format: "cells" })) as never).label).toBe("Display options");

    const left = await inputUntil(h.c, "send_keys", { sessionId, keys: "F10" }, "F2Setup");
    expect(left.screen.after.text).not.toContain("Categories");

    await h.c.ok("send_keys", { sessionId, keys: "q", captureScreen: false });
    const exit = await exitInfo(h.c, sessionId);
    expect(exit).toMatchObject({ exited: true, exitCode: 0, signal: null });
  });
});
