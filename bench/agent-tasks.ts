/**
 * The agent tasks the token benchmarks replay: five typical tasks (vim edit, htop setup, five bash
 * commands, python REPL, less search) and a small bash task. Each drives tui-tester through `call`,
 * whatever carries the calls: the SDK client (bench/tokens.ts) or a real MCP client (bench/clients.ts).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

export type Call = (name: string, args?: Record<string, unknown>) => Promise<Record<string, any>>;

export interface Task {
  name: string;
  app: string;
  run(call: Call, dir: string): Promise<void>;
}

export const SHELL = { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ " } };

export const tasks: Task[] = [
  {
    name: "vim edit/save/quit",
    app: "vim",
    async run(call, dir) {
      const file = join(dir, "notes.txt");
      writeFileSync(file, "first line\nsecond line\n");
      const { sessionId } = await call("start_session", { command: "vim", args: ["-u", "NONE", "-N", file] });
      await call("wait_for_text", { sessionId, pattern: "notes.txt" });
      await call("send_keys", { sessionId, keys: ["j", "A"] });
      await call("send_text", { sessionId, text: " edited" });
      await call("send_keys", { sessionId, keys: "Escape" });
      await call("send_text", { sessionId, text: ":wq\r" });
      await call("get_exit_info", { sessionId });
      await call("stop_session", { sessionId });
    },
  },
  {
    name: "htop F2 + navigation",
    app: "htop",
    async run(call) {
      const { sessionId } = await call("start_session", { command: "htop", cols: 100, rows: 30 });
      await call("wait_for_text", { sessionId, pattern: "F10" });
      await call("send_keys", { sessionId, keys: "F2", waitFor: { pattern: "Setup" } });
      await call("send_keys", { sessionId, keys: "down" });
      await call("send_keys", { sessionId, keys: "down" });
      await call("send_keys", { sessionId, keys: "right" });
      await call("send_keys", { sessionId, keys: "Escape" });
      await call("send_keys", { sessionId, keys: "q" });
      await call("stop_session", { sessionId });
    },
  },
  {
    name: "bash, 5 commands",
    app: "bash",
    async run(call) {
      const { sessionId } = await call("start_session", SHELL);
      await call("wait_for_text", { sessionId, pattern: "$" });
      for (const [i, cmd] of ["echo hello", "pwd", "ls /", "printf 'a\\nb\\nc\\n'", "echo done"].entries()) {
        await call("send_text", {
          sessionId,
          text: `${cmd}\r`,
          waitFor: { pattern: i === 4 ? "done\n$" : "$", regex: false },
        });
      }
      await call("get_text", { sessionId });
      await call("stop_session", { sessionId });
    },
  },
  {
    name: "python REPL",
    app: "python3",
    async run(call) {
      const { sessionId } = await call("start_session", {
        command: "python3",
        args: ["-q"],
        env: { PYTHON_BASIC_REPL: "1" },
      });
      await call("wait_for_text", { sessionId, pattern: ">>>" });
      await call("send_text", { sessionId, text: "1 + 1\r", waitFor: { pattern: "2" } });
      await call("send_text", { sessionId, text: "def f(x):\r" });
      await call("send_text", { sessionId, text: "    return x * 2\r" });
      await call("send_text", { sessionId, text: "\r" });
      await call("send_text", { sessionId, text: "f(21)\r", waitFor: { pattern: "42" } });
      await call("send_text", { sessionId, text: "exit()\r" });
      await call("get_exit_info", { sessionId });
    },
  },
  {
    name: "less paging + search",
    app: "less",
    async run(call, dir) {
      const file = join(dir, "lines.txt");
      writeFileSync(file, Array.from({ length: 500 }, (_, i) => `line ${i + 1} of the file`).join("\n"));
      const { sessionId } = await call("start_session", { command: "less", args: [file] });
      await call("wait_for_text", { sessionId, pattern: "line 1 of" });
      await call("send_keys", { sessionId, keys: "space" });
      await call("send_keys", { sessionId, keys: "space" });
      await call("send_text", { sessionId, text: "/line 300\r", waitFor: { pattern: "line 300 of" } });
      await call("send_keys", { sessionId, keys: "n" });
      await call("send_keys", { sessionId, keys: "q" });
      await call("stop_session", { sessionId });
    },
  },
];

export const smallBash: Task = {
  name: "small bash task",
  app: "bash",
  async run(call) {
    const { sessionId } = await call("start_session", SHELL);
    await call("wait_for_text", { sessionId, pattern: "$" });
    for (const cmd of ["echo one", "echo two", "echo three", "echo four", "echo five"])
      await call("send_text", { sessionId, text: `${cmd}\r` });
    await call("get_text", { sessionId });
    await call("stop_session", { sessionId });
  },
};
