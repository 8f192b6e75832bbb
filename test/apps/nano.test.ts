/** nano: type, ctrl+o, Enter shows the written-lines message, ctrl+x exits. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeApp, exitInfo, inputUntil, useServer, waitText } from "./helpers.ts";

describeApp("nano", () => {
  const h = useServer();

  test("type, ctrl+o, Enter writes the file ([ Wrote 1 line ]), ctrl+x exits 0", async () => {
    const dir = h.tempDir();
    const { sessionId } = await h.start({ command: "nano", args: ["file.txt"], cwd: dir, cols: 80, rows: 24 });
    await waitText(h.c, sessionId, "GNU nano");
    await waitText(h.c, sessionId, "^X Exit");

    await inputUntil(h.c, "send_text", { sessionId, text: "written by nano" }, "written by nano");
    const prompt = await inputUntil(h.c, "send_keys", { sessionId, keys: "ctrl+o" }, "File Name to Write");
    expect(prompt.screen.after.text).toContain("file.txt");
    const wrote = await inputUntil(h.c, "send_keys", { sessionId, keys: "Enter" }, "Wrote 1 line");
    expect(wrote.screen.after.text).toContain("[ Wrote 1 line ]");
    expect(readFileSync(join(dir, "file.txt"), "utf8")).toBe("written by nano\n");

    await h.c.ok("send_keys", { sessionId, keys: "ctrl+x", captureScreen: false });
    const exit = await exitInfo(h.c, sessionId);
    expect(exit).toMatchObject({ exited: true, exitCode: 0 });
  });
});
