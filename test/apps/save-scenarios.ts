/**
 * Eight real programs driven the way an agent drives them (a wait for the first screen, keys, a few
 * inline waits, some without), then saved with save_test. Shared by the real-app tier
 * (save-test.test.ts: a few reruns each) and bench/save-test.ts (20 reruns each, --workers 2).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { TestClient } from "../e2e/client.ts";

export interface Scenario {
  /** The program that must be on PATH. */
  app: string;
  name: string;
  /** Files the session needs, written into the scenario's directory first. */
  files?: Record<string, string>;
  /** Drive a session like an agent; returns its id. */
  drive(c: TestClient, dir: string): Promise<string>;
  /** The screen holds a clock: the end golden must carry a mask. */
  clock?: boolean;
  /** save_test's snapshots option (default "end"). */
  snapshots?: "end" | "waits" | "none";
  /** Arrow keys only move a highlight here: save_test must wait on it, not on a fixed idle. */
  highlightWaits?: boolean;
  /** Change what the app shows, so that the saved test must fail; and a text its failure names. */
  change?: { files: Record<string, string>; failureMentions: string };
}

export async function ok(c: TestClient, tool: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const result = await c.call(tool, args);
  if (result.isError) throw new Error(`${tool} ${JSON.stringify(args).slice(0, 200)}: ${result.text.slice(0, 2000)}`);
  return result.data;
}

export const start = async (c: TestClient, dir: string, args: Record<string, unknown>, ready: string) => {
  const { sessionId } = await ok(c, "start_session", { cols: 80, rows: 24, cwd: dir, ...args });
  await ok(c, "wait_for_text", { sessionId, pattern: ready, timeoutMs: 15_000 });
  return sessionId as string;
};
export const keys = (c: TestClient, sessionId: string, k: unknown, waitFor?: string) =>
  ok(c, "send_keys", {
    sessionId,
    keys: k,
    ...(waitFor ? { waitFor: { pattern: waitFor, timeoutMs: 10_000, errorOnTimeout: true } } : {}),
  });
export const text = (c: TestClient, sessionId: string, t: string, waitFor?: string) =>
  ok(c, "send_text", {
    sessionId,
    text: t,
    ...(waitFor ? { waitFor: { pattern: waitFor, timeoutMs: 10_000, errorOnTimeout: true } } : {}),
  });

const HTOPRC = `htop_version=3.2.2
config_reader_min_version=3
fields=0 48 17 18 38 39 40 2 46 47 49 1
hide_kernel_threads=1
hide_userland_threads=1
color_scheme=0
enable_mouse=0
delay=15
header_layout=two_50_50
column_meters_0=Clock
column_meter_modes_0=2
column_meters_1=Uptime
column_meter_modes_1=2
`;

export const SCENARIOS: Scenario[] = [
  {
    app: "htop",
    name: "htop-help-and-back",
    clock: true,
    files: { htoprc: HTOPRC },
    async drive(c, dir) {
      // -u nobody: an empty process list, so what is left on screen is the header's clock and uptime
      const id = await start(
        c,
        dir,
        {
          command: "htop",
          args: ["-u", "nobody"],
          env: { HTOPRC: join(dir, "htoprc"), HOME: join(dir, "..", "home") },
        },
        "Uptime",
      );
      await keys(c, id, "F1");
      await keys(c, id, "q", "PID USER");
      return id;
    },
  },
  {
    app: "vim",
    name: "vim-open-other-file",
    files: { "notes.txt": "first file\nline two\n", "other.txt": "the other file\nhas three\nlines\n" },
    async drive(c, dir) {
      const id = await start(
        c,
        dir,
        { command: "vim", args: ["-u", "NONE", "-i", "NONE", "-N", "-n", "notes.txt"] },
        "notes.txt",
      );
      await text(c, id, ":e other.txt\r");
      await keys(c, id, ["j", "j"]);
      return id;
    },
    change: { files: { "other.txt": "a different file\nhas three\nlines\n" }, failureMentions: "a different file" },
  },
  {
    app: "mc",
    name: "mc-view-a-file",
    files: { "readme.txt": "mc can view this file\n", "zeta.txt": "z\n" },
    async drive(c, dir) {
      const id = await start(
        c,
        dir,
        { command: "mc", args: ["-u", "--nocolor", dir], env: { HOME: join(dir, "..", "home"), MC_SKIN: "default" } },
        "readme.txt",
      );
      await keys(c, id, "down");
      await keys(c, id, "F3", "mc can view this file");
      return id;
    },
  },
  {
    app: "less",
    name: "less-search",
    files: {
      "log.txt":
        Array.from({ length: 60 }, (_, i) => `line ${i + 1}${i === 41 ? " the needle" : ""}`).join("\n") + "\n",
    },
    async drive(c, dir) {
      const id = await start(c, dir, { command: "less", args: ["log.txt"], env: { LESSHISTFILE: "-" } }, "line 1");
      await text(c, id, "/needle\r");
      await keys(c, id, "G", "(END)");
      return id;
    },
  },
  {
    app: "nano",
    name: "nano-type-and-cut",
    async drive(c, dir) {
      const id = await start(c, dir, { command: "nano", args: ["--ignorercfiles", "draft.txt"] }, "New File");
      await ok(c, "type_text", { sessionId: id, text: "hello nano\rsecond line", cps: 200 });
      await keys(c, id, "ctrl+k");
      return id;
    },
  },
  {
    app: "dialog",
    name: "dialog-menu-pick",
    highlightWaits: true,
    files: {
      "menu.sh": 'choice=$(dialog --menu "Pick a fruit" 12 40 4 $(cat items) 3>&1 1>&2 2>&3)\necho "picked: $choice"\n',
      items: "a Apple b Banana c Cherry",
    },
    snapshots: "waits",
    async drive(c, dir) {
      const id = await start(
        c,
        dir,
        { command: "bash", args: ["--norc", "--noprofile", "menu.sh"], env: { DIALOGRC: "/dev/null" } },
        "Pick a fruit",
      );
      await keys(c, id, "down");
      await keys(c, id, "down");
      await keys(c, id, "enter");
      await ok(c, "wait_for_text", { sessionId: id, pattern: "picked", timeoutMs: 10_000 });
      return id;
    },
    change: { files: { items: "a Apple b Blueberry c Cherry" }, failureMentions: "Blueberry" },
  },
  {
    app: "python3",
    name: "python-repl",
    async drive(c, dir) {
      const id = await start(
        c,
        dir,
        { command: "python3", args: ["-q"], env: { PYTHONSTARTUP: "", PYTHON_BASIC_REPL: "1" } },
        ">>> ",
      );
      await text(c, id, "print(6 * 7)\r", "42");
      await text(c, id, "'-'.join(['a', 'b'])\r");
      await ok(c, "run_script", { sessionId: id, steps: [{ type: "assert_text", pattern: "'a-b'" }] });
      return id;
    },
  },
  {
    app: "bash",
    name: "bash-date",
    clock: true,
    async drive(c, dir) {
      const id = await start(c, dir, { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "$ " } }, "$ ");
      await text(c, id, "echo started\r");
      // a clock on screen: the golden must mask it to pass tomorrow
      await text(c, id, "date\r");
      await text(c, id, "echo done\r");
      return id;
    },
  },
];

/** The app's files go in <dir>/app (the session's cwd), saved tests in <dir>/tests, so no listing shows the tests. */
export function prepare(dir: string, files: Record<string, string> | undefined): { appDir: string; testsDir: string } {
  const appDir = join(dir, "app");
  const testsDir = join(dir, "tests");
  mkdirSync(appDir, { recursive: true });
  mkdirSync(testsDir, { recursive: true });
  mkdirSync(join(dir, "home"), { recursive: true });
  for (const [name, content] of Object.entries(files ?? {})) writeFileSync(join(appDir, name), content);
  return { appDir, testsDir };
}

export function writeChange(appDir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) writeFileSync(join(appDir, name), content);
}
