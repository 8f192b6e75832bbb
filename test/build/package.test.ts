/**
 * The npm package as `bunx tui-tester` gets it: `bun pm pack` (the same file list as `npm pack`, which
 * the release publishes), then install the tarball into an empty project (dependencies from Bun's
 * cache, the npm registry only when they are not cached) and run its bin through its shebang, as
 * bunx does: --version, `bunx tui-tester`, and MCP initialize + tools/list + a session.
 *
 * The project is hostile, like a user's project an MCP client starts the server in: a bunfig.toml
 * whose preload prints to stdout, a .env with TUI_TESTER_PTY=nonsense and a marker variable, and a
 * tsconfig.json whose "paths" redirect every bare import. The bin must ignore all three.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { connectStdio, type StdioTestClient } from "../e2e/client.ts";
import { BUN_PROGRAMS, envWithPath, NODE_PROGRAMS, pathWithout } from "./toolchains.ts";
import { lacks } from "../helpers.ts";

const ROOT = join(import.meta.dir, "..", "..");
const BUN = process.execPath;
const posix = process.platform !== "win32";
let dir = "";
let tarball = "";
let entries: string[] = [];
let app = "";
let bin = "";

function sh(cmd: string[], cwd: string, env: Record<string, string> = {}) {
  const result = Bun.spawnSync(cmd, {
    cwd,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, TUI_TESTER_LOG: "silent", ...env },
  });
  const out = { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() };
  if (out.code !== 0) throw new Error(`${cmd.join(" ")} exited ${out.code}:\n${out.stdout}\n${out.stderr}`);
  return out;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tui-tester-pack-"));
  // What prepack does (the release runs `bun run types` itself, then packs with --ignore-scripts).
  sh([BUN, "run", "types"], ROOT);
  sh([BUN, "pm", "pack", "--destination", dir, "--ignore-scripts", "--quiet"], ROOT);
  tarball = join(dir, `${pkg.name}-${pkg.version}.tgz`);
  entries = sh(["tar", "-tzf", tarball], dir)
    .stdout.split("\n")
    .filter((line) => line !== "" && !line.endsWith("/"))
    .map((line) => line.replace(/^package\//, ""))
    .sort();
  app = join(dir, "app");
  await Bun.write(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true }));
  sh([BUN, "add", "--prefer-offline", "--no-summary", tarball], app);
  bin = join(app, "node_modules", ".bin", process.platform === "win32" ? "tui-tester.exe" : "tui-tester");
  // The hostile project, written after the install so only the server meets it.
  await Bun.write(join(app, "bunfig.toml"), 'preload = ["./preload.ts"]\n');
  await Bun.write(
    join(app, "preload.ts"),
    'console.log("PRELOAD WROTE TO STDOUT");\nawait Bun.write(import.meta.dir + "/PRELOADED", "yes");\n',
  );
  await Bun.write(join(app, ".env"), "TUI_TESTER_PTY=nonsense\nDOTENV_MARKER=leaked\n");
  await Bun.write(
    join(app, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "*": ["./hijack.ts"] } } }),
  );
  await Bun.write(join(app, "hijack.ts"), 'console.log("TSCONFIG PATHS HIJACKED AN IMPORT");\nexport {};\n');
}, 120_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

test("the tarball holds bin/, src/, types/, schema/, the demos, README, LICENSE and package.json, nothing else", async () => {
  const tree = (root: string, pattern: string) =>
    [...new Bun.Glob(pattern).scanSync({ cwd: root, onlyFiles: true })].map((p) => p.replaceAll("\\", "/")).sort();
  expect(entries.filter((e) => e.startsWith("src/"))).toEqual(tree(ROOT, "src/**/*"));
  expect(entries.filter((e) => e.startsWith("types/"))).toEqual(tree(ROOT, "types/**/*.d.ts"));
  expect(entries).toContain("types/lib/index.d.ts");
  expect(entries).toContain("types/lib/expect.d.ts");
  const demos = pkg.files.filter((f) => f.startsWith("scripts/")).sort();
  expect(demos).toEqual(["scripts/demo-tui.ts", "scripts/demo-visible.ts"]);
  // schema/: the JSON Schema of test files (save_test writes them; editors validate them)
  expect(entries.filter((e) => e.startsWith("schema/"))).toEqual(tree(ROOT, "schema/**/*"));
  const rest = entries.filter((e) => !/^(src|types|schema)\//.test(e));
  expect(rest).toEqual(["LICENSE", "README.md", "bin/tui-tester", "package.json", ...demos]);
  expect(entries.some((e) => /\.test\.ts$|^test\/|^bench\/|^dist\/|^build\.ts$/.test(e))).toBe(false);
});

test("every entry of package.json files exists (a missing one would silently drop out of the package)", () => {
  const missing = pkg.files.filter((entry) => !entries.some((e) => e === entry || e.startsWith(`${entry}/`)));
  expect(missing).toEqual([]);
});

test.skipIf(lacks("npm", "the npm pack test"))("npm pack (what the release publishes) packs the same files", () => {
  const [report] = JSON.parse(sh(["npm", "pack", "--dry-run", "--json", "--ignore-scripts"], ROOT).stdout) as {
    files: { path: string; mode: number }[];
  }[];
  expect(report!.files.map((f) => f.path).sort()).toEqual(entries);
  // The launcher keeps its execute bit, or the shebang never runs.
  expect(report!.files.find((f) => f.path === "bin/tui-tester")!.mode & 0o111).toBe(0o111);
});

describe.skipIf(!posix)("the installed bin, started in a hostile project", () => {
  test("package.json's bin is the launcher, which is a /bin/sh script", async () => {
    expect(pkg.bin).toEqual({ "tui-tester": "bin/tui-tester" });
    expect((await Bun.file(join(ROOT, "bin", "tui-tester")).text()).split("\n")[0]).toBe("#!/bin/sh");
  });

  test("--version through the shebang and through bunx", () => {
    expect(sh([bin, "--version"], app)).toMatchObject({ stdout: `${pkg.version}\n` });
    expect(sh([BUN, "x", "tui-tester", "--version"], app)).toMatchObject({ stdout: `${pkg.version}\n` });
  });

  test.skipIf(lacks("npx", "the bin-through-npx test"))(
    "with no bun on PATH but npx (Node.js only), the bin runs Bun through npx",
    async () => {
      const env = envWithPath(await pathWithout(join(dir, "path-node-only"), BUN_PROGRAMS), {
        npm_config_prefix: join(dir, "npm-prefix"),
      });
      const result = Bun.spawnSync([bin, "--version"], {
        cwd: app,
        stdin: "ignore",
        stdout: "pipe",
        stderr: "pipe",
        env,
      });
      expect({ code: result.exitCode, stdout: result.stdout.toString() }).toEqual({
        code: 0,
        stdout: `${pkg.version}\n`,
      });
    },
    120_000,
  );

  test("with neither bun nor npx on PATH the bin says what it needs and exits 127", async () => {
    const env = envWithPath(await pathWithout(join(dir, "path-neither"), [...BUN_PROGRAMS, ...NODE_PROGRAMS]));
    const result = Bun.spawnSync([bin], { cwd: app, stdin: "ignore", stdout: "pipe", stderr: "pipe", env });
    expect(result.exitCode).toBe(127);
    expect(result.stdout.toString()).toBe("");
    expect(result.stderr.toString()).toContain("Bun (>= 1.3.5) is needed");
  });

  describe.each([
    { how: "the bin run directly (its shebang)", command: () => bin, args: [] as string[] },
    { how: "bunx tui-tester", command: () => BUN, args: ["x", "tui-tester"] as string[] },
  ])("$how", ({ command, args }) => {
    let c: StdioTestClient;
    let stderr = "";
    beforeAll(async () => {
      // TUI_TESTER_PTY unset here, so only the project's .env could set it.
      c = await connectStdio({ command: command(), args, cwd: app, env: { TUI_TESTER_PTY: "", TUI_TESTER_LOG: "on" } });
      c.transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    }, 60_000);
    afterAll(async () => {
      await c?.[Symbol.asyncDispose]();
    });

    test("initialize: the installed version, the source's tools", async () => {
      expect(c.client.getServerVersion()?.version).toBe(pkg.version);
      await using source = await connectStdio();
      expect((await c.client.listTools()).tools).toEqual((await source.client.listTools()).tools);
    });

    test("start_session works and the project's .env reaches neither the server nor the program", async () => {
      const started = await c.ok("start_session", {
        command: "bash",
        args: [
          "--norc",
          "--noprofile",
          "-c",
          'echo "marker=${DOTENV_MARKER:-unset} pty=${TUI_TESTER_PTY:-unset}"; sleep 30',
        ],
      });
      const waited = await c.ok("wait_for_text", {
        sessionId: started.sessionId,
        pattern: "marker=",
        timeoutMs: 10_000,
      });
      expect(waited.matched).toBe(true);
      const text = (await c.ok("get_text", { sessionId: started.sessionId })).text as string;
      expect(text).toContain("marker=unset pty=unset");
      await c.ok("stop_session", { sessionId: started.sessionId, signal: "SIGKILL" });
    });

    test("neither the bunfig.toml preload nor the tsconfig.json paths ran", () => {
      expect(existsSync(join(app, "PRELOADED"))).toBe(false);
      expect(stderr).not.toContain("HIJACKED");
    });
  });
});

/**
 * The library as a user's project gets it: `import { launch } from "tui-tester"` and
 * `import "tui-tester/expect"` in a bun test, type-checked by tsc against the shipped .d.ts, and a
 * clear refusal under Node. A project of its own (the one above is hostile on purpose: its tsconfig
 * paths would redirect the test's own imports).
 */
describe("the library from the installed package", () => {
  let project = "";
  beforeAll(async () => {
    project = join(dir, "library-user");
    await Bun.write(
      join(project, "package.json"),
      JSON.stringify({ name: "library-user", private: true, type: "module" }),
    );
    sh([BUN, "add", "--prefer-offline", "--no-summary", tarball], project);
    const compilerOptions = {
      strict: true,
      noEmit: true,
      module: "Preserve",
      moduleResolution: "bundler",
      target: "ESNext",
      lib: ["ESNext"],
      types: ["bun"],
      skipLibCheck: true,
      typeRoots: [join(ROOT, "node_modules", "@types")],
    };
    await Bun.write(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts"] }));
    await Bun.write(
      join(project, "shell.test.ts"),
      `import { expect, test } from "bun:test";
import { launch, TuiError, type Terminal } from "tui-tester";
import "tui-tester/expect";

test("drives a shell", async () => {
  await using t: Terminal = await launch("bash", { args: ["--norc", "--noprofile"], env: { PS1: "$ " } });
  const result = await t.type("echo $((6 * 7))\\r", { waitFor: /^42$/m });
  expect(result.screen?.diff.identical).toBe(false);
  await expect(t).toShowText("42");
  await expect(t.waitForText("never", { timeoutMs: 50 })).rejects.toBeInstanceOf(TuiError);
});
`,
    );
  }, 120_000);

  test("a bun test importing tui-tester and tui-tester/expect passes", () => {
    const out = sh([BUN, "test"], project, { TUI_TESTER_LOG: "" });
    expect(out.stdout + out.stderr).toContain("1 pass");
  }, 60_000);

  test("tsc checks the user's file against the shipped declarations, matchers included", async () => {
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    expect(sh([BUN, tsc, "-p", project], project).code).toBe(0);
    await Bun.write(
      join(project, "wrong.ts"),
      'import { expect } from "bun:test";\nimport { launch } from "tui-tester";\nimport "tui-tester/expect";\nconst t = await launch("x", { cols: "wide" });\nawait expect(t).toShowTextt("x");\n',
    );
    const failed = Bun.spawnSync([BUN, tsc, "-p", project], { cwd: project, stdout: "pipe" });
    await Bun.file(join(project, "wrong.ts")).delete();
    expect(failed.exitCode).not.toBe(0);
    expect(failed.stdout.toString()).toContain("wrong.ts(4,");
    expect(failed.stdout.toString()).toContain("'toShowTextt' does not exist");
  }, 60_000);

  test.skipIf(lacks("node", "the under-Node.js test"))(
    "under Node.js both entry points fail at once, saying the library needs Bun",
    () => {
      for (const entry of ["tui-tester", "tui-tester/expect"]) {
        const result = Bun.spawnSync(["node", "--input-type=module", "-e", `await import(${JSON.stringify(entry)})`], {
          cwd: project,
          stdout: "pipe",
          stderr: "pipe",
        });
        expect(result.exitCode).not.toBe(0);
        expect(result.stderr.toString()).toContain("tui-tester's library needs Bun");
      }
    },
  );
});
