/**
 * Hermetic tests on a real program: a vim session saved (isolated) over MCP reruns green under
 * `tui-tester test --ci` for a user whose ~/.vimrc says `set number`, because the runner isolates
 * the test's session by default; the same file with "isolate": false sees the line numbers and fails.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, type TestClient } from "../e2e/client.ts";
import { runCli, scratch } from "../cli/cli-helpers.ts";
import { describeApp } from "./helpers.ts";

describeApp("vim", () => {
  let c: TestClient;
  let dir: Awaited<ReturnType<typeof scratch>>;
  beforeAll(async () => {
    dir = await scratch();
    c = await connect({ cwd: dir.dir, env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
  });
  afterAll(async () => {
    await c[Symbol.asyncDispose]();
    await dir[Symbol.asyncDispose]();
  });

  test("a vim test saved without ~/.vimrc passes under a HOME whose .vimrc says `set number`", async () => {
    await dir.write("notes.txt", "alpha line\nbeta line\n");
    const { sessionId } = await c.ok("start_session", {
      command: "vim",
      args: ["-N", "-n", "-i", "NONE", "notes.txt"],
      cols: 60,
      rows: 10,
      isolate: true,
    });
    await c.ok("wait_for_text", { sessionId, pattern: "beta line", errorOnTimeout: true });
    await c.ok("send_keys", { sessionId, keys: ["j"] });
    await c.ok("save_test", { sessionId, path: "vim-notes.tui.json" });
    await c.ok("stop_session", { sessionId });

    const home = join(dir.dir, "dirty-home");
    mkdirSync(home);
    writeFileSync(join(home, ".vimrc"), "set number\n");
    const run = await runCli(["--ci", "vim-notes.tui.json"], { cwd: dir.dir, env: { HOME: home, CI: "1" } });
    expect(run.stderr).toContain("1 passed");
    expect(run.code).toBe(0);

    // the control: the same test, not isolated, reads the .vimrc and its screen has line numbers
    const file = JSON.parse(await Bun.file(join(dir.dir, "vim-notes.tui.json")).text());
    file.session.isolate = false;
    await dir.write("vim-notes-home.tui.json", file);
    const goldens = join(dir.dir, "__snapshots__");
    mkdirSync(join(goldens, "vim-notes-home.tui.json"), { recursive: true });
    for (const name of ["vim-notes-end.txt"])
      writeFileSync(
        join(goldens, "vim-notes-home.tui.json", name),
        await Bun.file(join(goldens, "vim-notes.tui.json", name)).text(),
      );
    const leaky = await runCli(["--ci", "vim-notes-home.tui.json"], { cwd: dir.dir, env: { HOME: home, CI: "1" } });
    expect(leaky.code).toBe(1);
    expect(leaky.stderr).toMatch(/1 alpha line/);
  });
});
