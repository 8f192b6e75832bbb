/** vim -u NONE: insert mode, :wq writes the file; its start-up terminal queries are answered. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "tui-tester";
import "tui-tester/expect";
import { describeApp, useTempDirs } from "./helpers.ts";

describeApp("vim", () => {
  const tempDir = useTempDirs();
  const vim = async (cwd: string) => {
    const t = await launch("vim", { args: ["-u", "NONE", "-N"], cwd });
    await t.waitForText("VIM - Vi IMproved");
    return t;
  };

  test("i, type, Escape, :wq file.txt writes the file and exits 0", async () => {
    const dir = tempDir();
    await using t = await vim(dir);
    await t.press("i", { waitFor: "-- INSERT --" });
    const typed = await t.type("hello from tui-tester", { waitFor: "hello from tui-tester" });
    expect(typed.screen!.after!.lines[0]).toBe("hello from tui-tester");
    await t.press("Escape");
    await expect(t).not.toShowText("-- INSERT --");

    await t.type(":wq file.txt", { waitFor: ":wq file.txt" });
    await t.press("Enter", { captureScreen: false });
    expect(await t.waitForExit({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
    expect(readFileSync(join(dir, "file.txt"), "utf8")).toBe("hello from tui-tester\n");
  });

  test("vim's DA2 request at start-up got tui-tester's answer (v:termresponse)", async () => {
    await using t = await vim(tempDir());
    expect(t.raw()).toContain("\x1b[>c"); // vim asked for secondary device attributes
    await t.type(":echo 'TR=' . v:termresponse\r", { waitFor: /TR=\^\[\[>\d+;\d+;\d+c/ });
    await t.type(":q!\r", { captureScreen: false });
    expect((await t.waitForExit({ timeoutMs: 10_000 })).exitCode).toBe(0);
  });
});
