/** less: /search finds a line far down a file, q quits with 0. */
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeApp, exitInfo, inputUntil, useServer, waitText } from "./helpers.ts";

describeApp("less", () => {
  const h = useServer();

  test("/line 250 Enter shows that line, q quits with exit code 0", async () => {
    const dir = h.tempDir();
    const file = join(dir, "numbers.txt");
    writeFileSync(file, Array.from({ length: 500 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    // LESS/LESSOPEN from the environment could change what is shown; pin them
    const { sessionId } = await h.start({ command: "less", args: [file], cwd: dir, cols: 80, rows: 24, env: { LESS: "", LESSOPEN: "", LESSCLOSE: "", LESSHISTFILE: "-" } });
    const first = await waitText(h.c, sessionId, "line 23");
    expect(first.screen.text).toContain("line 1\n");
    expect(first.screen.text).not.toContain("line 250");

    await inputUntil(h.c, "send_text", { sessionId, text: "/line 250" }, "/line 250");
    const found = await inputUntil(h.c, "send_keys", { sessionId, keys: "Enter" }, "^line 250$", { regex: true, regexFlags: "m" });
    // less puts the match on the top row
    expect(found.screen.after.lines[0]).toBe("line 250");
    expect(found.screen.after.text).not.toContain("line 1\n");

    await h.c.ok("send_keys", { sessionId, keys: "q", captureScreen: false });
    const exit = await exitInfo(h.c, sessionId);
    expect(exit).toMatchObject({ exited: true, exitCode: 0 });
  });
});
