/**
 * Echo-aware waits on real shells and REPLs: a command line that contains the awaited text does not
 * match while it is only typed; the program's answer does. Each command blocks until the test sends
 * the next line (or prints only after a sub-process that reads), so nothing depends on timing.
 */
import { expect, test } from "bun:test";
import { describeApp, useServer } from "./helpers.ts";

const rowsOf = (text: string) => text.split("\n").map((row) => row.trimEnd());

interface Case {
  app: string;
  start: Record<string, unknown>;
  ready: string;
  /** A line that waits for one more line of input, then prints MARK (the echo contains MARK too). */
  command: string;
  /** The row the answer shows once it came. */
  answer: string;
}

const cases: Case[] = [
  {
    app: "zsh",
    start: { command: "zsh", args: ["-f"], env: { PS1: "%% " } },
    ready: "% ",
    command: "read -r _; echo ZSHMARK",
    answer: "ZSHMARK",
  },
  {
    app: "fish",
    start: {
      command: "fish",
      args: ["--no-config", "-C", "function fish_prompt; echo -n 'fish> '; end"],
      env: { fish_greeting: "" },
    },
    ready: "fish> ",
    command: "read -l _; echo FISHMARK",
    answer: "FISHMARK",
  },
  {
    app: "python3",
    start: { command: "python3", args: ["-q", "-i"], env: { PYTHONSTARTUP: "" } },
    ready: ">>> ",
    command: 'input(); print("PYMARK")',
    answer: "PYMARK",
  },
  {
    app: "node",
    start: { command: "node", args: ["-i"], env: { NODE_NO_READLINE: "" } },
    ready: "> ",
    command: 'require("child_process").execSync("head -n1", { stdio: "inherit" }) || "NODEMARK"',
    answer: "'NODEMARK'",
  },
];

for (const c of cases) {
  describeApp(c.app, () => {
    const h = useServer();
    test(`${c.app}: the echoed command line does not match, the answer does`, async () => {
      const { sessionId } = await h.start({ cols: 100, rows: 24, ...c.start });
      await h.c.ok("wait_for_text", { sessionId, pattern: c.ready, timeoutMs: 15_000 });
      const mark = c.answer.replaceAll("'", "");
      const held = await h.c.ok("send_text", {
        sessionId,
        text: `${c.command}\r`,
        waitFor: { pattern: mark, timeoutMs: 400 },
      });
      expect(held.waitFor.matched).toBe(false);
      expect(held.screen.after.text).toContain(mark); // the echo is there, and was skipped
      const echoed = await h.c.ok("wait_for_text", {
        sessionId,
        pattern: mark,
        matchEcho: true,
        timeoutMs: 1000,
      });
      expect(echoed.matched).toBe(true);
      const done = await h.c.ok("send_text", {
        sessionId,
        text: "go\r",
        waitFor: { pattern: mark, timeoutMs: 15_000 },
      });
      expect(done.waitFor.matched).toBe(true);
      expect(rowsOf(done.screen.after.text)).toContain(c.answer);
    });
  });
}
