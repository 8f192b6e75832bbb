/** Midnight Commander with xterm mouse (-x): clicks on the menu bar and on the F-key bar work. */
import { expect, test } from "bun:test";
import { describeApp, exitInfo, inputUntil, sessionModes, useServer, waitText } from "./helpers.ts";

describeApp("mc", () => {
  const h = useServer();

  test("click Left opens its menu, F10 closes it, click 10Quit exits 0", async () => {
    // a private HOME: mc writes its config and history there
    const home = h.tempDir();
    const { sessionId } = await h.start({ command: "mc", args: ["-x", "--nosubshell"], cwd: home, env: { HOME: home, XDG_CONFIG_HOME: `${home}/.config`, TERM: "xterm-256color" }, cols: 100, rows: 30 });
    await waitText(h.c, sessionId, "10Quit");
    await waitText(h.c, sessionId, "Left");
    const modes = await sessionModes(h.c, sessionId);
    expect(modes.mouseTracking).not.toBe("none");
    expect(modes.mouseEncoding).toBe("sgr");

    const menu = await inputUntil(h.c, "mouse", { sessionId, action: "click", text: "Left" }, "Listing format");
    expect(menu.at.row).toBe(0);
    await inputUntil(h.c, "send_keys", { sessionId, keys: "F10" }, "^(?![\\s\\S]*Listing format)", { regex: true });

    await h.c.ok("mouse", { sessionId, action: "click", text: "10Quit", captureScreen: false });
    const exit = await exitInfo(h.c, sessionId);
    expect(exit).toMatchObject({ exited: true, exitCode: 0, signal: null });
  });
}, "mc (Midnight Commander)");
