/**
 * The linux-arm64 binary, cross-built by the test, run on an x86-64 Linux host under qemu-user:
 * --version, MCP initialize + tools/list, and one bash session on each PTY backend (bun-pty loads
 * the embedded arm64 .so). Needs Debian's qemu-user-static (or qemu-user) and libc6-arm64-cross
 * (the aarch64 glibc the binary links against); skipped with a message when they are absent.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { buildTarget, TARGETS } from "../../build.ts";
import { connectStdio, type TestClient } from "../e2e/client.ts";

const LOADER = "lib/ld-linux-aarch64.so.1";
const qemu = Bun.which("qemu-aarch64-static") ?? Bun.which("qemu-aarch64");
/** Where the aarch64 glibc lives: libc6-arm64-cross's prefix, or / on a multiarch host. */
const sysroot = ["/usr/aarch64-linux-gnu", "/"].find((root) => existsSync(join(root, LOADER)));
const onX64Linux = process.platform === "linux" && process.arch === "x64";
const missing = !onX64Linux
  ? "not an x86-64 Linux host"
  : !qemu
    ? "qemu-aarch64(-static) not on PATH (apt-get install qemu-user-static)"
    : !sysroot
      ? `no aarch64 glibc (${LOADER}; apt-get install libc6-arm64-cross)`
      : "";
if (missing) console.warn(`skipping linux-arm64 under qemu: ${missing}`);

let dir = "";
let binary = "";
const qemuArgs = () => [...(sysroot && sysroot !== "/" ? ["-L", sysroot] : []), binary];

beforeAll(async () => {
  if (missing) return;
  dir = await mkdtemp(join(tmpdir(), "tui-tester-arm64-"));
  binary = (await buildTarget(TARGETS.find((t) => t.name === "linux-arm64")!, dir)).outfile;
}, 180_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe.skipIf(missing !== "")("linux-arm64 binary under qemu-user", () => {
  test("--version", () => {
    const result = Bun.spawnSync([qemu!, ...qemuArgs(), "--version"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
    expect(result.stderr.toString()).toBe("");
    expect(result.stdout.toString()).toBe(`${pkg.version}\n`);
    expect(result.exitCode).toBe(0);
  }, 60_000);

  for (const { label, pty, rawBytes } of [
    { label: "Bun.Terminal", pty: "", rawBytes: true },
    { label: "bun-pty", pty: "bun-pty", rawBytes: false },
  ]) {
    test(`initialize, tools/list and a bash session on ${label}`, async () => {
      let c: TestClient | undefined;
      try {
        c = await connectStdio({
          command: qemu!,
          args: qemuArgs(),
          cwd: dir,
          env: { TUI_TESTER_PTY: pty, BUN_PTY_LIB: "" },
        });
        expect(c.client.getServerVersion()?.version).toBe(pkg.version);
        const { tools } = await c.client.listTools();
        expect(tools.map((t) => t.name)).toContain("run_script");
        const { sessionId } = await c.ok("start_session", {
          command: "bash",
          args: ["--norc", "--noprofile"],
          env: { PS1: "$ " },
        });
        const sent = await c.ok("send_text", {
          sessionId,
          text: "echo $((6*7))\r",
          waitFor: { pattern: "^42$", regex: true, regexFlags: "m", timeoutMs: 20_000 },
        });
        expect(sent.waitFor.matched).toBe(true);
        expect((await c.call("send_raw", { sessionId, hex: "ff", captureScreen: false })).isError).toBe(!rawBytes);
        await c.ok("stop_session", { sessionId, graceMs: 200 });
      } finally {
        await c?.[Symbol.asyncDispose]();
      }
    }, 90_000);
  }
});
