/**
 * Highlights: the selected item of real apps is identifiable from the default text views
 * (get_text, the after-screen of an input) without asking for cells.
 */
import { expect, test } from "bun:test";
import { describeApp, useServer, waitText } from "./helpers.ts";

interface Highlight {
  row: number;
  startCol: number;
  endCol: number;
  text: string;
  kind: string;
}

/** Highlights whose text contains `word`. */
const marked = (highlights: Highlight[], word: string) => highlights.filter((h) => h.text.includes(word));
/** The same, drawn as a selection (inverse or a background bar; dialog draws idle button labels bold). */
const selected = (highlights: Highlight[], word: string) => marked(highlights, word).filter((h) => h.kind !== "bold");

/** get_text's highlights once `ready` holds for them; ncurses apps draw a screen in several writes. */
async function highlightsWhen(
  c: { ok(name: string, args: Record<string, unknown>): Promise<Record<string, any>> },
  sessionId: string,
  ready: (h: Highlight[]) => boolean,
): Promise<Highlight[]> {
  let highlights: Highlight[] = [];
  for (let i = 0; i < 50; i++) {
    highlights = (await c.ok("get_text", { sessionId })).highlights;
    if (ready(highlights)) break;
    await c.ok("wait_for_idle", { sessionId, idleMs: 100, timeoutMs: 1000 });
  }
  return highlights;
}

describeApp("dialog", () => {
  const h = useServer();

  test("the selected menu item and button are highlights, and they follow the arrow keys", async () => {
    const { sessionId } = await h.start({
      command: "dialog",
      args: ["--menu", "Pick", "15", "40", "4", "a", "Apple", "b", "Banana", "c", "Cherry"],
      cols: 80,
      rows: 24,
      env: { TERM: "xterm-256color", DIALOGRC: "/dev/null" },
    });
    await waitText(h.c, sessionId, "Cherry");
    await waitText(h.c, sessionId, "Cancel");
    const first = (await h.c.ok("get_text", { sessionId })).highlights;
    expect(selected(first, "Apple").length).toBe(1);
    expect(selected(first, "Banana")).toEqual([]);
    expect(selected(first, "OK").length).toBe(1);
    expect(selected(first, "Cancel")).toEqual([]);

    const down = await h.c.ok("send_keys", { sessionId, keys: "down" });
    expect(selected(down.screen.after.highlights, "Banana").length).toBe(1);
    expect(selected(down.screen.after.highlights, "Apple")).toEqual([]);
    const [banana] = selected(down.screen.after.highlights, "Banana");
    expect(down.screen.after.lines[banana!.row].slice(banana!.startCol, banana!.endCol)).toBe(banana!.text);

    const tab = await h.c.ok("send_keys", { sessionId, keys: "tab" });
    expect(selected(tab.screen.after.highlights, "Cancel").length).toBe(1);
    expect(selected(tab.screen.after.highlights, "OK")).toEqual([]);
  });
});

describeApp("htop", () => {
  const h = useServer();

  test("the selected process row is a highlight and moves with down", async () => {
    const { sessionId } = await h.start({ command: "htop", cols: 120, rows: 40, env: { TERM: "xterm-256color" } });
    await waitText(h.c, sessionId, "Load average");
    await waitText(h.c, sessionId, "Quit");
    const rowsOf = (highlights: Highlight[]) =>
      highlights.filter((x) => x.startCol === 0 && x.endCol === 120 && /^\s*\d+ /.test(x.text)).map((x) => x.row);
    const before = rowsOf(await highlightsWhen(h.c, sessionId, (x) => rowsOf(x).length === 1));
    expect(before.length).toBe(1);
    await h.c.ok("send_keys", { sessionId, keys: "down", captureScreen: false });
    const after = await highlightsWhen(h.c, sessionId, (x) => rowsOf(x)[0] === before[0]! + 1);
    expect(rowsOf(after)).toEqual([before[0]! + 1]);
    // the F-key bar's labels are emphasis too, and the active tab on the header bar (issue 22)
    expect(marked(after, "Setup").length).toBe(1);
    expect(marked(after, "[Main]").length).toBe(1);
  });
});

describeApp(
  "mc",
  () => {
    const h = useServer();

    test("the panel's cursor line is a highlight and moves to the next file", async () => {
      const home = h.tempDir();
      for (const name of ["alpha.txt", "beta.txt"]) await Bun.write(`${home}/${name}`, "x\n");
      const { sessionId } = await h.start({
        command: "mc",
        args: ["--nosubshell"],
        cwd: home,
        env: { HOME: home, XDG_CONFIG_HOME: `${home}/.config`, TERM: "xterm-256color" },
        cols: 100,
        rows: 30,
      });
      await waitText(h.c, sessionId, "10Quit");
      await waitText(h.c, sessionId, "beta.txt");
      const start = await highlightsWhen(h.c, sessionId, (x) => marked(x, "/..").length > 0);
      // the cursor line on "/.." of the active panel, not the inactive one's
      expect(selected(start, "/..").length).toBe(1);
      await h.c.ok("send_keys", { sessionId, keys: "down", captureScreen: false });
      await h.c.ok("send_keys", { sessionId, keys: "down", captureScreen: false });
      await h.c.ok("send_keys", { sessionId, keys: "down", captureScreen: false });
      await h.c.ok("send_keys", { sessionId, keys: "down", captureScreen: false });
      const moved = await highlightsWhen(h.c, sessionId, (x) => marked(x, "alpha.txt").length > 0);
      expect(selected(moved, "alpha.txt").length).toBe(1);
      expect(selected(moved, "/..")).toEqual([]);
    });
  },
  "mc (Midnight Commander)",
);
