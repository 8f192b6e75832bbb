/** Runs `tui-tester test` as a subprocess (as CI would) in a scratch directory of test files. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `command` defaults to the source entry run by Bun; pass a compiled binary to test that instead. */
/** An env value of undefined removes the variable. */
export async function runCli(
  args: string[],
  options: { cwd: string; env?: Record<string, string | undefined>; command?: string[] },
): Promise<CliRun> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, NO_COLOR: "1", ...options.env }))
    if (v !== undefined) env[k] = v;
  const proc = Bun.spawn([...(options.command ?? [process.execPath, MAIN]), "test", ...args], {
    cwd: options.cwd,
    env,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

/** A scratch directory, removed on dispose. */
export async function scratch(): Promise<
  AsyncDisposable & { dir: string; write(name: string, content: unknown): Promise<string> }
> {
  const dir = await mkdtemp(join(tmpdir(), "tui-cli-"));
  return {
    dir,
    async write(name, content) {
      const path = join(dir, name);
      await Bun.write(path, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return path;
    },
    async [Symbol.asyncDispose]() {
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A bash session with a fixed prompt: deterministic and present everywhere the suite runs. */
export const bash = (extra: Record<string, unknown> = {}) => ({
  command: "bash",
  args: ["--norc", "--noprofile"],
  env: { PS1: "t$ " },
  cols: 40,
  rows: 8,
  ...extra,
});

/** Steps that wait for the prompt, then run `command` and wait for `expect` on its own line. */
export const shellSteps = (command: string, expect: string) => [
  { type: "wait_for_text", pattern: "t$" },
  {
    type: "send_text",
    text: `${command}\r`,
    waitFor: { pattern: `^${expect}$`, regex: true, regexFlags: "m", errorOnTimeout: true },
  },
];
