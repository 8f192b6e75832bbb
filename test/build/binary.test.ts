/**
 * The compiled executable for this machine (linux-x64 here, darwin-arm64 on a Mac runner), built
 * by the test itself into a temporary directory with no node_modules, run from there over stdio:
 * --version/--help, then a smoke subset of the e2e suite on both PTY backends (Bun.Terminal, and
 * bun-pty whose native library the binary extracts from itself at runtime). The directory also
 * holds a bunfig.toml preload, a .env and a package.json with another version: the binary must
 * ignore all three.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { buildTarget, hostTarget } from "../../build.ts";
import { ENVIRONMENT } from "../../src/config.ts";
import { connectStdio, PLAIN_BASH, type TestClient } from "../e2e/client.ts";

const target = hostTarget();
const posix = process.platform !== "win32";
let dir = "";
let binary = "";

beforeAll(async () => {
  if (!target) return;
  dir = await mkdtemp(join(tmpdir(), "tui-tester-bin-"));
  binary = (await buildTarget(target, dir)).outfile;
  await Bun.write(join(dir, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
  await Bun.write(
    join(dir, "preload.ts"),
    'await Bun.write(import.meta.dir + "/PRELOADED", "bunfig was autoloaded");\n',
  );
  await Bun.write(join(dir, ".env"), "DOTENV_MARKER=leaked\n");
  await Bun.write(join(dir, "package.json"), JSON.stringify({ name: "decoy", version: "9.9.9" }));
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function run(...args: string[]) {
  const env = { ...process.env, TUI_TESTER_LOG: "silent" };
  const result = Bun.spawnSync([binary, ...args], { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
}

describe.skipIf(!target)(`compiled ${target?.name ?? "host"} binary`, () => {
  test("runs from a directory without node_modules (none above it either)", () => {
    for (let d = dir; d !== dirname(d); d = dirname(d)) expect(existsSync(join(d, "node_modules"))).toBe(false);
  });

  test("--version prints the baked-in package.json version, not the cwd's", () => {
    const result = run("--version");
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  test("--help lists the flags and every environment variable, without starting the server", () => {
    const result = run("--help");
    expect(result.code).toBe(0);
    for (const flag of ["--help", "--version"]) expect(result.stdout).toContain(flag);
    for (const e of ENVIRONMENT) expect(result.stdout).toContain(e.name);
  });

  test("an unknown flag exits 2 with the help on stderr", () => {
    const result = run("--frobnicate");
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Unknown argument "--frobnicate"');
  });

  test("bunfig.toml preload was not run", () => {
    expect(existsSync(join(dir, "PRELOADED"))).toBe(false);
  });
});

const backends = [
  { label: "Bun.Terminal (TUI_TESTER_PTY unset)", env: { TUI_TESTER_PTY: "" }, rawBytes: true },
  { label: "bun-pty (embedded native library)", env: { TUI_TESTER_PTY: "bun-pty" }, rawBytes: false },
];

describe.skipIf(!target || !posix).each(backends)("compiled binary over MCP stdio, $label", ({ env, rawBytes }) => {
  let c: TestClient;
  beforeAll(async () => {
    c = await connectStdio({ command: binary, args: [], cwd: dir, env: { ...env, BUN_PTY_LIB: "" } });
  });
  afterAll(async () => {
    await c?.[Symbol.asyncDispose]();
  });

  test("initialize reports the package version", () => {
    expect(c.client.getServerVersion()?.version).toBe(pkg.version);
  });

  test("tools/list is identical to the source server's", async () => {
    await using source = await connectStdio();
    const fromSource = await source.client.listTools();
    const fromBinary = await c.client.listTools();
    expect(fromBinary.tools.map((t) => t.name)).toEqual(fromSource.tools.map((t) => t.name));
    expect(fromBinary.tools).toEqual(fromSource.tools);
  });

  test("bash session: send_text, send_keys with waitFor, snapshot, send_raw, run_script, stop_session", async () => {
    const { sessionId } = await c.ok("start_session", PLAIN_BASH);
    expect((await c.ok("wait_for_text", { sessionId, pattern: "^\\$", regex: true, regexFlags: "m" })).matched).toBe(
      true,
    );

    const typed = await c.ok("send_text", {
      sessionId,
      text: 'echo "dotenv=[$DOTENV_MARKER] sum=$((6*7))"',
      // typed without Enter: the echo is all there is to wait for
      waitFor: { pattern: "sum=$((6*7))", matchEcho: true },
    });
    expect(typed.waitFor.matched).toBe(true);
    const entered = await c.ok("send_keys", {
      sessionId,
      keys: "Enter",
      waitFor: { pattern: "^dotenv=\\[\\] sum=42$", regex: true, regexFlags: "m" },
    });
    expect(entered.waitFor.matched).toBe(true);
    expect(entered.screen.diff.identical).toBe(false);

    const snap = await c.ok("snapshot", { sessionId });
    expect(snap.lines).toContain("dotenv=[] sum=42");
    expect(snap.text).not.toContain("leaked");

    // Raw bytes that are not UTF-8 tell the backends apart: Bun.Terminal sends them, bun-pty refuses.
    const raw = await c.call("send_raw", { sessionId, hex: "ff", captureScreen: false });
    expect(raw.isError).toBe(!rawBytes);
    if (!rawBytes) expect(raw.text).toContain("bun-pty backend");
    await c.ok("send_keys", { sessionId, keys: "ctrl+u" });

    const script = await c.ok("run_script", {
      sessionId,
      defaults: { timeoutMs: 5000 },
      steps: [
        {
          type: "send_text",
          text: "printf 'scr%s\\n' ipt\r",
          waitFor: { pattern: "^script$", regex: true, regexFlags: "m" },
        },
        { type: "send_keys", keys: ["ctrl+l"] },
        { type: "wait_for_idle", idleMs: 50 },
        { type: "assert_text", pattern: "sum=42", negate: true },
        { type: "snapshot", format: "cells" },
      ],
    });
    expect(script).toMatchObject({ ok: true, stepsRun: 5, stoppedAtStep: null });

    const stopped = await c.ok("stop_session", { sessionId, graceMs: 200 });
    expect(stopped.exit.exitCode === null ? stopped.exit.signal : stopped.exit.exitCode).toBeTruthy();
    const info = await c.ok("get_exit_info", { sessionId });
    expect(info).toMatchObject({ exited: true, state: "exited" });
  });
});
