/** dialog: ncurses mouse support; a click on a button (SGR mouse reports) picks it. */
import { expect, test } from "bun:test";
import { launch } from "tui-tester";
import { describeApp } from "./helpers.ts";

describeApp("dialog", () => {
  const yesno = async () => {
    const t = await launch("dialog", {
      args: ["--yesno", "Proceed?", "10", "40"],
      env: { TERM: "xterm-256color", DIALOGRC: "/dev/null" },
    });
    await t.waitForText("Proceed?");
    await t.waitForText("< No  >");
    return t;
  };

  test("dialog switches mouse tracking on (normal tracking, SGR encoding)", async () => {
    await using t = await yesno();
    expect(t.modes()).toMatchObject({ mouseTracking: "vt200", mouseEncoding: "sgr" });
  });

  test("clicking < No > exits with code 1", async () => {
    await using t = await yesno();
    const line = (row: number) => t.screen().then((s) => s.lines[row]!);
    const clicked = await t.mouse({ action: "click", text: "< No  >" }, { captureScreen: false });
    expect(clicked).toMatchObject({
      action: "click",
      events: ["press", "release"],
      tracking: "vt200",
      encoding: "sgr",
    });
    const at = clicked.at as { row: number; col: number };
    expect((await line(at.row)).slice(at.col - 3, at.col + 4)).toBe("< No  >");
    expect(await t.waitForExit({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 1, signal: null });
  });

  test("clicking < Yes > exits with code 0", async () => {
    await using t = await yesno();
    await t.mouse({ action: "click", text: "< Yes >" }, { captureScreen: false });
    expect(await t.waitForExit({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0, signal: null });
  });
});
