/** less: /search finds a line far down a file, q quits with 0. */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { launch } from "tui-tester";
import { describeApp, useTempDirs } from "./helpers.ts";

describeApp("less", () => {
  const tempDir = useTempDirs();

  test("/line 250 Enter shows that line, q quits with exit code 0", async () => {
    const dir = tempDir();
    const file = join(dir, "numbers.txt");
    writeFileSync(file, Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    // LESS/LESSOPEN from the environment could change what is shown; pin them
    await using less = await launch("less", {
      args: [file],
      cwd: dir,
      env: { LESS: "", LESSOPEN: "", LESSCLOSE: "", LESSHISTFILE: "-" },
    });
    const first = await less.waitForText("line 23");
    expect(first.screen.text).toContain("line 1\n");
    expect(first.screen.text).not.toContain("line 250");

    await less.type("/line 250", { waitFor: "/line 250" });
    const found = await less.press("Enter", { waitFor: /^line 250$/m });
    // less puts the match on the top row
    expect(found.screen!.after!.lines[0]).toBe("line 250");
    expect(found.screen!.after!.text).not.toContain("line 1\n");

    await less.press("q", { captureScreen: false });
    expect(await less.waitForExit({ timeoutMs: 10_000 })).toMatchObject({ exitCode: 0 });
  });
});
