/**
 * Recordings read by Debian's asciinema (`asciinema cat`), and a full-screen app with resizes
 * round-trips: replaying the file's output and resize events into a fresh emulator gives the
 * screen the session showed. Skips when asciinema or vim is absent (.ci/run installs them).
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Emulator } from "../../src/term/emulator.ts";
import { describeApp, exitInfo, inputUntil, useServer, waitText } from "../apps/helpers.ts";
import type { TestClient } from "../e2e/client.ts";
import { outputOf, readCast } from "./cast.ts";

/** `asciinema cat` needs a controlling terminal (it opens /dev/tty), so it runs in a session; its stdout goes to a file, byte-exact. */
async function asciinemaCat(c: TestClient, path: string): Promise<string> {
  const out = `${path}.out`;
  const { sessionId } = await c.ok("start_session", {
    command: "bash",
    args: ["-c", 'asciinema cat "$1" > "$2"', "cat", path, out],
  });
  const exit = await exitInfo(c, sessionId);
  if (exit.exitCode !== 0) throw new Error(`asciinema cat failed: ${exit.tail}`);
  return readFileSync(out, "utf8");
}

async function replay(path: string): Promise<string> {
  const { header, events } = readCast(path);
  const emulator = new Emulator({ cols: header.width, rows: header.height, reply: () => undefined });
  for (const [, code, data] of events) {
    if (code === "o") emulator.write(data);
    if (code === "r") {
      await emulator.flushed();
      const [cols, rows] = data.split("x").map(Number);
      emulator.resize(cols!, rows!);
    }
  }
  await emulator.flushed();
  const text = emulator.text();
  emulator.dispose();
  return text;
}

describeApp(
  "asciinema",
  () => {
    const h = useServer();

    test("asciinema cat prints a bash session's output", async () => {
      const dir = h.tempDir();
      const path = join(dir, "bash.cast");
      const { sessionId } = await h.start({
        command: "bash",
        args: ["--norc", "--noprofile"],
        env: { PS1: "$ " },
        record: path,
      });
      await waitText(h.c, sessionId, "$");
      await inputUntil(h.c, "send_text", { sessionId, text: "echo recorded-$((6*7))\r" }, "recorded-42");
      await h.c.ok("stop_recording", { sessionId });
      const out = await asciinemaCat(h.c, path);
      expect(out).toContain("recorded-42");
      const { events } = readCast(path);
      expect(out).toBe(outputOf(events));
    });
  },
  "asciinema reads recordings",
);

describeApp(
  ["asciinema", "vim"],
  () => {
    const h = useServer();

    test("vim with resizes: asciinema reads it and replaying it gives the final screen", async () => {
      const dir = h.tempDir();
      const path = join(dir, "vim.cast");
      const { sessionId } = await h.start({
        command: "vim",
        args: ["-u", "NONE", "-N"],
        cwd: dir,
        cols: 80,
        rows: 24,
        record: path,
      });
      await waitText(h.c, sessionId, "VIM - Vi IMproved");
      await inputUntil(h.c, "send_keys", { sessionId, keys: "i" }, "-- INSERT --");
      await inputUntil(h.c, "send_text", { sessionId, text: "hello from a recording" }, "hello from a recording");
      await h.c.ok("resize", { sessionId, cols: 100, rows: 30 });
      await waitText(h.c, sessionId, "-- INSERT --");
      await h.c.ok("resize", { sessionId, cols: 60, rows: 15 });
      await inputUntil(h.c, "send_text", { sessionId, text: " and back" }, "and back");
      await h.c.ok("wait_for_idle", { sessionId, idleMs: 200 });
      const screen = (await h.c.ok("get_text", { sessionId })).text as string;
      const stopped = await h.c.ok("stop_recording", { sessionId });
      expect(stopped.events).toBeGreaterThan(3);

      const out = await asciinemaCat(h.c, path);
      expect(out).toContain("hello from a recording");
      expect(out).toBe(outputOf(readCast(path).events));
      const { header, events } = readCast(path);
      expect(header).toMatchObject({ width: 80, height: 24 });
      expect(events.filter(([, code]) => code === "r").map(([, , d]) => d)).toEqual(["100x30", "60x15"]);
      expect((await replay(path)).replace(/\s+$/, "")).toBe(screen.replace(/\s+$/, ""));
      await h.c.ok("send_text", { sessionId, text: "\x1b:q!\r", captureScreen: false });
    });
  },
  "asciinema + vim recording round trip",
);
