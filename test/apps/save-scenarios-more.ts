/**
 * Save scenarios on programs beyond the first eight (save-scenarios.ts): tmux, fish, zsh, lf, gdu, a
 * dialog checklist and vim's visual mode. Each is driven as an agent would over MCP; the test tier
 * (save-test-more.test.ts) reruns the saved test 3 times, bench/save-test.ts --more 20 times.
 */
import { keys, ok, type Scenario, start, text } from "./save-scenarios.ts";

export const MORE_SCENARIOS: Scenario[] = [
  {
    app: "tmux",
    name: "tmux-new-window",
    async drive(c, dir) {
      // -f /dev/null: no ~/.tmux.conf; the last shell's exit ends the tmux server with it (no stray)
      const id = await start(
        c,
        dir,
        {
          command: "tmux",
          args: ["-f", "/dev/null", "-L", `save-${process.pid}`, "new-session", "bash", "--norc", "--noprofile"],
          env: { PS1: "t$ " },
        },
        "t$",
      );
      await text(c, id, "echo first-window\r", "first-window");
      await keys(c, id, ["ctrl+b", "c"], "1:bash*");
      await text(c, id, "echo second-window\r", "second-window");
      await text(c, id, "exit\r", "first-window");
      await text(c, id, "exit\r", "[exited]");
      return id;
    },
  },
  {
    app: "fish",
    name: "fish-math",
    async drive(c, dir) {
      const id = await start(
        c,
        dir,
        { command: "fish", args: ["--no-config", "--private"], env: { fish_greeting: "" } },
        "#",
      );
      await text(c, id, "math 6 \\* 7\r", "42");
      await text(c, id, "string upper hello\r", "HELLO");
      return id;
    },
  },
  {
    app: "zsh",
    name: "zsh-complete-a-file",
    files: { "alpha-notes.txt": "alpha\n", "beta.txt": "beta\n" },
    async drive(c, dir) {
      const id = await start(c, dir, { command: "zsh", args: ["-f"], env: { PS1: "z%# " } }, "z#");
      await text(c, id, "cat alp");
      await keys(c, id, "tab", "alpha-notes.txt");
      await keys(c, id, "enter", "alpha");
      return id;
    },
  },
  {
    app: "lf",
    name: "lf-move-down",
    files: { "a-first.txt": "1\n", "b-second.txt": "22\n", "c-third.txt": "333\n" },
    async drive(c, dir) {
      const id = await start(c, dir, { command: "lf", args: [] }, "a-first.txt");
      await keys(c, id, "j");
      await keys(c, id, "j");
      return id;
    },
  },
  {
    app: "gdu",
    name: "gdu-browse",
    files: { "big.bin": "x".repeat(40_000), "small.txt": "tiny\n" },
    async drive(c, dir) {
      const id = await start(c, dir, { command: "gdu", args: ["--no-mouse", "."] }, "big.bin");
      await keys(c, id, "down");
      await keys(c, id, "?", "gdu help");
      await keys(c, id, "escape", "big.bin");
      return id;
    },
  },
  {
    app: "dialog",
    name: "dialog-checklist",
    highlightWaits: true,
    files: {
      "pick.sh":
        'choice=$(dialog --checklist "Fruits" 12 40 4 a Apple off b Banana off c Cherry off 3>&1 1>&2 2>&3)\necho "chose: $choice"\n',
    },
    snapshots: "waits",
    async drive(c, dir) {
      const id = await start(
        c,
        dir,
        { command: "bash", args: ["--norc", "--noprofile", "pick.sh"], env: { DIALOGRC: "/dev/null" } },
        "Fruits",
      );
      await keys(c, id, "down");
      await keys(c, id, "space", "[*]");
      await keys(c, id, "down");
      await keys(c, id, "space");
      await keys(c, id, "enter");
      await ok(c, "wait_for_text", { sessionId: id, pattern: "chose", timeoutMs: 10_000 });
      return id;
    },
  },
  {
    app: "vim",
    name: "vim-visual-yank",
    files: { "list.txt": "one\ntwo\nthree\n" },
    async drive(c, dir) {
      const id = await start(
        c,
        dir,
        { command: "vim", args: ["-u", "NONE", "-i", "NONE", "-N", "-n", "list.txt"] },
        "list.txt",
      );
      await keys(c, id, "V", "-- VISUAL LINE --");
      await keys(c, id, "j");
      await keys(c, id, "j");
      await keys(c, id, "y", "3 lines yanked");
      await keys(c, id, "G");
      await keys(c, id, "p", "3 more lines");
      return id;
    },
  },
];
