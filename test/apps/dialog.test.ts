/** dialog: ncurses mouse support; a click on a button (SGR mouse reports) picks it. */
import { expect, test } from "bun:test";
import { describeApp, exitInfo, sessionModes, useServer, waitText } from "./helpers.ts";

describeApp("dialog", () => {
  const h = useServer();

  const yesno = async () => {
    const { sessionId } = await h.start({ command: "dialog", args: ["--yesno", "Proceed?", "10", "40"], cols: 80, rows: 24, env: { TERM: "xterm-256color", DIALOGRC: "/dev/null" } });
    await waitText(h.c, sessionId, "Proceed?");
    await waitText(h.c, sessionId, "< No  >");
    return sessionId;
  };

  test("dialog switches mouse tracking on (normal tracking, SGR encoding)", async () => {
    const sessionId = await yesno();
    const modes = await sessionModes(h.c, sessionId);
    expect(modes.mouseTracking).not.toBe("none");
    expect(modes.mouseTracking).toBe("vt200");
    expect(modes.mouseEncoding).toBe("sgr");
  });

  test("clicking < No > exits with code 1", async () => {
    const sessionId = await yesno();
    const clicked = await h.c.ok("mouse", { sessionId, action: "click", text: "< No  >", captureScreen: false });
    expect(clicked).toMatchObject({ action: "click", events: ["press", "release"], tracking: "vt200", encoding: "sgr" });
    const line = (await h.c.ok("get_text", { sessionId })).text.split("\n")[clicked.at.row] as string;
    expect(line.slice(clicked.at.col - 3, clicked.at.col + 4)).toBe("< No  >");
    const exit = await exitInfo(h.c, sessionId);
    expect(exit).toMatchObject({ exited: true, exitCode: 1, signal: null });
  });

  test("clicking < Yes > exits with code 0", async () => {
    const sessionId = await yesno();
    await h.c.ok("mouse", { sessionId, action: "click", text: "< Yes >", captureScreen: false });
    const exit = await exitInfo(h.c, sessionId);
    expect(exit).toMatchObject({ exited: true, exitCode: 0, signal: null });
  });
});
