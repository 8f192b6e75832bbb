/** nano: type, ctrl+o, Enter shows the written-lines message, ctrl+x exits. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "tui-tester";
import { describeApp, useTempDirs } from "./helpers.ts";

describeApp("nano", () => {
  const tempDir = useTempDirs();

  test("type, ctrl+o, Enter writes the file ([ Wrote 1 line ]), ctrl+x exits 0", async () => {
    const dir = tempDir();
    await using nano = await launch("nano", { args: ["file.txt"], cwd: dir });
    await nano.waitForText("GNU nano");
    await nano.waitForText("^X Exit");

    await nano.type("written by nano", { waitFor: "written by nano" });
    const prompt = await nano.press("ctrl+o", { waitFor: "File Name to Write" });
    expect(prompt.screen!.after!.text).toContain("file.txt");
    const wrote = await nano.press("Enter", { waitFor: "Wrote 1 line" });
    expect(wrote.screen!.after!.text).toContain("[ Wrote 1 line ]");
    expect(readFileSync(join(dir, "file.txt"), "utf8")).toBe("written by nano\n");

    await nano.press("ctrl+x", { captureScreen: false });
    expect(await nano.waitForExit({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
  });
});
