/**
 * The npm package as `bunx tui-tester` gets it: `bun pm pack`, then install the tarball into an
 * empty project (dependencies from Bun's cache, the npm registry only when they are not cached)
 * and run its bin: --version, `bunx tui-tester --version`, and MCP initialize + tools/list.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { connect } from "../e2e/client.ts";

const ROOT = join(import.meta.dir, "..", "..");
const BUN = process.execPath;
let dir = "";
let tarball = "";
let entries: string[] = [];
let app = "";

function sh(cmd: string[], cwd: string) {
  const result = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: { ...process.env, TUI_TESTER_LOG: "silent" } });
  const out = { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
  if (out.code !== 0) throw new Error(`${cmd.join(" ")} exited ${out.code}:\n${out.stdout}\n${out.stderr}`);
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tui-tester-pack-"));
  sh([BUN, "pm", "pack", "--destination", dir, "--ignore-scripts", "--quiet"], ROOT);
  tarball = join(dir, `${pkg.name}-${pkg.version}.tgz`);
  entries = sh(["tar", "-tzf", tarball], dir).stdout.split("\n").filter((line) => line !== "" && !line.endsWith("/")).map((line) => line.replace(/^package\//, "")).sort();
  app = join(dir, "app");
  await Bun.write(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  sh([BUN, "add", "--prefer-offline", "--no-summary", tarball], app);
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the tarball holds src/, the demo scripts, README, LICENSE and package.json, nothing else", async () => {
  const src = [...new Bun.Glob("src/**/*").scanSync({ cwd: ROOT, onlyFiles: true })].map((p) => p.replaceAll("\\", "/")).sort();
  expect(entries.filter((e) => e.startsWith("src/"))).toEqual(src);
  const demos = pkg.files.filter((f) => f.startsWith("scripts/")).sort();
  expect(demos).toEqual(["scripts/demo-tui.ts", "scripts/demo-visible.ts"]);
  expect(entries.filter((e) => !e.startsWith("src/"))).toEqual(["LICENSE", "README.md", "package.json", ...demos.filter((d) => entries.includes(d))]);
  expect(entries.some((e) => /\.test\.ts$|^test\/|^bench\/|^dist\/|^build\.ts$/.test(e))).toBe(false);
});

test("every entry of package.json files exists (a missing one would silently drop out of the package)", () => {
  const missing = pkg.files.filter((entry) => !entries.some((e) => e === entry || e.startsWith(`${entry}/`)));
  expect(missing).toEqual([]);
});

test("the bin runs the TypeScript entry under Bun: --version, and bunx tui-tester --version", () => {
  expect(pkg.bin).toEqual({ "tui-tester": "src/main.ts" });
  const bin = join(app, "node_modules", ".bin", process.platform === "win32" ? "tui-tester.exe" : "tui-tester");
  expect(sh([bin, "--version"], app).stdout).toBe(`${pkg.version}\n`);
  expect(sh([BUN, "x", "tui-tester", "--version"], app).stdout).toBe(`${pkg.version}\n`);
});

test("the installed package serves MCP: initialize and tools/list", async () => {
  await using installed = await connect({ command: BUN, args: ["x", "tui-tester"], cwd: app });
  await using source = await connect();
  expect(installed.client.getServerVersion()?.version).toBe(pkg.version);
  expect((await installed.client.listTools()).tools).toEqual((await source.client.listTools()).tools);
});
