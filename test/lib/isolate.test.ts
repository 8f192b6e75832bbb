/** launch({ isolate: true }): the program's own HOME, gone after close(); env null removes a variable. */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { launch } from "tui-tester";

test("an isolated terminal has a fresh HOME that close() removes; env null removes a variable", async () => {
  process.env.TUI_LIB_PLANTED_SECRET = "lib-planted";
  process.env.TUI_LIB_PLAIN = "plain";
  try {
    const t = await launch("bash", {
      args: ["--norc", "--noprofile"],
      env: { PS1: "$ ", TUI_LIB_PLAIN: null },
      isolate: true,
    });
    await t.waitForText("$");
    await t.type('echo "H=$HOME S=${TUI_LIB_PLANTED_SECRET-none} P=${TUI_LIB_PLAIN-none}."\r', {
      waitFor: "S=none P=none.",
    });
    const home = /H=(\S+) S=none/.exec((await t.screen()).text)?.[1];
    expect(home).toMatch(/tui-tester-home-[^/]+\/home$/);
    expect(existsSync(home!)).toBe(true);
    await t.close();
    expect(existsSync(home!)).toBe(false);
  } finally {
    delete process.env.TUI_LIB_PLANTED_SECRET;
    delete process.env.TUI_LIB_PLAIN;
  }
});
