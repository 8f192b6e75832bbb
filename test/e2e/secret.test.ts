/**
 * send_text { secret: true } over the real server process: the program gets the text, and the text
 * is in none of the reply, the input history (save_test's file and goldens), the recording or the
 * server's log. The saved test reads it from TUI_SECRET_1 and fails clearly when that is unset.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bash, runCli, scratch } from "../cli/cli-helpers.ts";
import { connectStdio, type StdioTestClient } from "./client.ts";

setDefaultTimeout(90_000);
const SECRET = "hunter2-Zq9xW";
let c: StdioTestClient;
let dir: Awaited<ReturnType<typeof scratch>>;
let stderr = "";
beforeAll(async () => {
  dir = await scratch();
  c = await connectStdio({ cwd: dir.dir, env: { TUI_TESTER_LOG: "on", DISPLAY: "", WAYLAND_DISPLAY: "" } });
  c.transport.stderr?.on("data", (chunk: Buffer) => void (stderr += chunk.toString()));
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  await dir[Symbol.asyncDispose]();
});

/** Every file under the scratch directory, as text. */
function allFiles(root = dir.dir): string {
  let out = "";
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    out += statSync(path).isDirectory() ? allFiles(path) : readFileSync(path, "utf8");
  }
  return out;
}

describe("send_text secret: true", () => {
  test("reaches the program; not in the reply, saved test, goldens, recording or log; the rerun reads TUI_SECRET_1", async () => {
    // the program compares what it read with this file (outside the scratch directory searched below)
    const want = join(tmpdir(), `tui-secret-want-${process.pid}`);
    writeFileSync(want, SECRET);
    const { sessionId } = await c.ok("start_session", bash({ cols: 60, rows: 8, env: { PS1: "t$ ", WANT: want } }));
    await c.ok("wait_for_text", { sessionId, pattern: "t$", errorOnTimeout: true });
    await c.ok("start_recording", { sessionId, path: "secret.cast", includeInput: true });
    // `read` echoes: the screen shows the secret, so the goldens must mask it
    await c.ok("send_text", {
      sessionId,
      text: 'read PW; echo len=${#PW} ok=$([ "$PW" = "$(cat $WANT)" ] && echo yes)\r',
    });
    const sent = await c.call("send_text", {
      sessionId,
      text: `${SECRET}\r`,
      secret: true,
      waitFor: { pattern: "len=13 ok=yes", errorOnTimeout: true },
    });
    expect(sent.isError).toBe(false);
    expect(sent.text).toContain(`Sent text (secret, ${SECRET.length + 1} chars)`);
    const shown = sent.text.replaceAll(SECRET, "<the echo>");
    expect(shown.split("\n")[0]).not.toContain("<the echo>"); // the sent line says only its length
    await c.ok("stop_recording", { sessionId });
    const saved = await c.call("save_test", { sessionId, path: "pw.tui.json", snapshots: "waits" });
    expect(saved.isError).toBe(false);
    expect(saved.text).not.toContain(SECRET);
    expect(saved.text).toContain("TUI_SECRET_1");

    const file = JSON.parse(await Bun.file(join(dir.dir, "pw.tui.json")).text());
    const step = file.steps.find((s: any) => s.secret === true);
    expect(step).toMatchObject({ type: "send_text", text: "${env:TUI_SECRET_1}", secret: true });
    // the recording keeps no keystroke of it; what the app echoed is output, as on the screen
    const cast = readFileSync(join(dir.dir, "secret.cast"), "utf8")
      .split("\n")
      .slice(1)
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const input = cast
      .filter((e: any) => e[1] === "i")
      .map((e: any) => e[2])
      .join("");
    expect(input).toContain("read PW");
    expect(input).not.toContain(SECRET);
    await dir.write("secret.cast", "");
    const everything = allFiles();
    expect(everything).toContain("▒"); // the echoed secret is masked in the goldens
    expect(everything).not.toContain(SECRET); // nor in the test or its goldens
    expect(stderr).not.toContain(SECRET);

    // the rerun types what TUI_SECRET_1 holds (the golden's "ok=yes" says it arrived whole)
    const green = await runCli(["--ci", "pw.tui.json"], { cwd: dir.dir, env: { TUI_SECRET_1: `${SECRET}\r` } });
    expect(green.stderr).toContain("1 passed");
    const unset = await runCli(["--ci", "pw.tui.json"], { cwd: dir.dir, env: { TUI_SECRET_1: undefined } });
    expect(unset.code).toBe(1);
    expect(unset.stderr).toContain("TUI_SECRET_1 is not set");
    expect(green.stderr + unset.stderr).not.toContain(SECRET);
    rmSync(want);
  });
});
