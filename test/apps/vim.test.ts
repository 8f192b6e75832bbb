/** vim -u NONE: insert mode, :wq writes the file; its start-up terminal queries are answered. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describeApp, exitInfo, inputUntil, useServer, waitText } from "./helpers.ts";

describeApp("vim", () => {
  const h = useServer();

  test("i, type, Escape, :wq file.txt writes the file and exits 0", async () => {
    const dir = h.tempDir();
    const { sessionId } = await h.start({ command: "vim", args: ["-u", "NONE", "-N"], cwd: dir, cols: 80, rows: 24 });
    await waitText(h.c, sessionId, "VIM - Vi IMproved");

    await inputUntil(h.c, "send_keys", { sessionId, keys: "i" }, "-- INSERT --");
    const typed = await inputUntil(h.c, "send_text", { sessionId, text: "hello from tui-tester" }, "hello from tui-tester");
    expect(typed.screen.after.lines[0]).toBe("hello from tui-tester");
    const normal = await h.c.ok("send_keys", { sessionId, keys: "Escape", waitFor: { pattern: "^(?![\\s\\S]*-- INSERT --)", regex: true, errorOnTimeout: true } });
    expect(normal.screen.after.text).not.toContain("-- INSERT --");

    await inputUntil(h.c, "send_text", { sessionId, text: ":wq file.txt" }, ":wq file.txt");
    await h.c.ok("send_keys", { sessionId, keys: "Enter", captureScreen: false });
    const exit = await exitInfo(h.c, sessionId);
    expect(exit).toMatchObject({ exited: true, exitCode: 0 });
    expect(readFileSync(join(dir, "file.txt"), "utf8")).toBe("hello from tui-tester\n");
  });

  test("vim's DA2 request at start-up got tui-tester's answer (v:termresponse)", async () => {
    const dir = h.tempDir();
    const { sessionId } = await h.start({ command: "vim", args: ["-u", "NONE", "-N"], cwd: dir, cols: 80, rows: 24 });
    await waitText(h.c, sessionId, "VIM - Vi IMproved");
    const raw = await h.c.ok("get_raw_output", { sessionId });
    expect(raw.output).toContain("\x1b[>c"); // vim asked for secondary device attributes
    await inputUntil(h.c, "send_text", { sessionId, text: ":echo 'TR=' . v:termresponse\r" }, "TR=\\^\\[\\[>\\d+;\\d+;\\d+c", { regex: true });
    await h.c.ok("send_text", { sessionId, text: ":q!\r", captureScreen: false });
    expect((await exitInfo(h.c, sessionId)).exitCode).toBe(0);
  });
});
