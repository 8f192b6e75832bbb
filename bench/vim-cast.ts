/** A 30 s recording of vim being typed into, over MCP like a host: the bench's GIF input. */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { connect } from "./client.ts";

const TEXT = [
  "The quick brown fox jumps over the lazy dog.",
  "tui-tester drives terminal apps in a real PTY.",
  "Every screen of this session should be in the GIF.",
  "Typing at ten characters a second takes a while.",
  "Line five, and then a few commands.",
  "A sixth line brings the typing to thirty seconds.",
].join("\r");

/** Records vim in `dir`; returns the cast's path. Types TEXT (290 characters) at 10 cps, about 30 s, then :set number and quits. */
export async function recordVim(dir: string): Promise<string> {
  const c = await connect();
  try {
    const path = join(dir, "vim.cast");
    const file = join(dir, "notes.txt");
    rmSync(path, { force: true }); // start_session refuses to replace a file
    rmSync(file, { force: true });
    const { sessionId } = await c.ok("start_session", {
      command: "vim",
      args: ["-u", "NONE", "-N", "-c", "syntax on", file],
      cols: 80,
      rows: 24,
      record: path,
    });
    await c.ok("wait_for_text", { sessionId, pattern: "notes.txt", timeoutMs: 15_000 });
    await c.ok("send_keys", { sessionId, keys: ["i"] });
    await c.ok("type_text", { sessionId, text: TEXT, cps: 10 }, 120_000);
    await c.ok("send_keys", { sessionId, keys: ["Escape"] });
    await c.ok("type_text", { sessionId, text: ":set number\r", cps: 10 });
    await c.ok("type_text", { sessionId, text: "gg", cps: 5 });
    await c.ok("wait_for_idle", { sessionId, idleMs: 300 });
    await c.ok("stop_recording", { sessionId });
    await c.ok("stop_session", { sessionId, signal: "SIGKILL" });
    return path;
  } finally {
    await c.close();
  }
}

if (import.meta.main) {
  const dir = process.argv[2] ?? ".";
  process.stderr.write(`recording vim into ${dir} (about 30 s)\n`);
  process.stderr.write(`${await recordVim(dir)}\n`);
}
