/**
 * Hermetic sessions at the registry: what the child's environment holds, where its HOME is, and that
 * the isolated directories go when the session ends (stop, exited and evicted, shutdown).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, statSync } from "node:fs";
import { baseEnv, isCredentialName } from "../../src/session/isolation.ts";
import { startOptions, testRegistry } from "../registry-helpers.ts";
import { until } from "../helpers.ts";

const PLANTED = { TUI_PLANTED_API_KEY: "sk-planted-1", GH_TOKEN: "ghp-planted-2", AWS_PROFILE: "planted-3" };
Object.assign(process.env, PLANTED, { TUI_PLANTED_PLAIN: "plain-4" });
afterAll(() => {
  for (const key of [...Object.keys(PLANTED), "TUI_PLANTED_PLAIN"]) delete process.env[key];
});

/** The child's environment as `env -0` prints it, and its exit. */
async function childEnv(extra: Parameters<typeof startOptions>[2] = {}) {
  await using registry = testRegistry();
  const session = await registry.start(startOptions("sh", ["-c", 'env > "$OUT"'], extra));
  await session.whenExited();
  return { session, registry };
}

describe("credential-like names", () => {
  test("keys, tokens, secrets, passwords and cloud variables count; ordinary ones do not", () => {
    for (const name of ["OPENAI_API_KEY", "GITHUB_TOKEN", "CLIENT_SECRET", "DB_PASSWORD", "AWS_REGION", "NPM_TOKEN"])
      expect(isCredentialName(name)).toBe(true);
    for (const name of ["PATH", "HOME", "TERM", "LANG", "TOKENIZERS_PARALLELISM", "KEYTIMEOUT", "EDITOR"])
      expect(isCredentialName(name)).toBe(false);
  });
});

describe("baseEnv", () => {
  const server = { PATH: "/bin", HOME: "/home/me", LC_ALL: "C", EDITOR: "vim", X_API_KEY: "k", GH_TOKEN: "t" };

  test("not isolated: the server's environment without its credentials; passEnv and env bring them back", () => {
    expect(baseEnv(server, {})).toEqual({ PATH: "/bin", HOME: "/home/me", LC_ALL: "C", EDITOR: "vim" });
    expect(baseEnv(server, { passEnv: ["GH_TOKEN"], env: { X_API_KEY: "given" } })).toMatchObject({
      GH_TOKEN: "t",
      X_API_KEY: "given",
    });
  });

  test("isolated: only the allowlist, the home's variables, passEnv and env; null removes", () => {
    const home = { HOME: "/tmp/h/home", TMPDIR: "/tmp/h/tmp" };
    expect(baseEnv(server, { home, passEnv: ["EDITOR"], env: { LC_ALL: null, NEW: "1" } })).toEqual({
      PATH: "/bin",
      EDITOR: "vim",
      HOME: "/tmp/h/home",
      TMPDIR: "/tmp/h/tmp",
      NEW: "1",
    });
  });
});

describe("a session's environment", () => {
  const out = () => `${process.env.TMPDIR ?? "/tmp"}/tui-isolation-${process.pid}-${Math.random()}.env`;
  const read = async (file: string) =>
    Object.fromEntries(
      (await Bun.file(file).text())
        .split("\n")
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
    );

  test("no planted credential reaches a non-isolated child; passEnv passes one; env null removes a variable", async () => {
    const file = out();
    await childEnv({ env: { OUT: file, TUI_PLANTED_PLAIN: null }, passEnv: ["GH_TOKEN"] });
    const env = await read(file);
    expect(env.TUI_PLANTED_API_KEY).toBeUndefined();
    expect(env.AWS_PROFILE).toBeUndefined();
    expect(env.GH_TOKEN).toBe("ghp-planted-2");
    expect(env.TUI_PLANTED_PLAIN).toBeUndefined();
    expect(env.HOME).toBe(process.env.HOME!);
  });

  test("isolated: a fresh 0700 HOME and XDG dirs, only allowlisted variables, all removed at stop", async () => {
    await using registry = testRegistry();
    const file = out();
    const session = await registry.start(
      startOptions("sh", ["-c", 'env > "$OUT"; touch "$HOME/.state"; exec sleep 30'], {
        isolate: true,
        env: { OUT: file },
      }),
    );
    const root = registry.isolatedRoot(session.id)!;
    expect(root).toBeString();
    await until(() => existsSync(`${root}/home/.state`), "the child to write into its HOME");
    const env = await read(file);
    expect(env.HOME).toBe(`${root}/home`);
    for (const key of ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_RUNTIME_DIR"]) {
      expect(env[key]!.startsWith(root)).toBe(true);
      expect(statSync(env[key]!).mode & 0o777).toBe(0o700);
    }
    expect(env.TMPDIR!.startsWith(root)).toBe(true);
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(env.PATH).toBe(process.env.PATH!);
    expect(env.TERM).toBe("xterm-256color");
    for (const key of [...Object.keys(PLANTED), "TUI_PLANTED_PLAIN"]) expect(env[key]).toBeUndefined();
    await registry.stop(session.id, "SIGTERM", 500);
    expect(existsSync(root)).toBe(false);
    expect(registry.isolatedRoot(session.id)).toBeUndefined();
  });

  test("an isolated session that exits by itself keeps its HOME until it is evicted or the registry shuts down", async () => {
    const registry = testRegistry({ maxExitedKept: 1 });
    const first = await registry.start(startOptions("true", [], { isolate: true }));
    const firstRoot = registry.isolatedRoot(first.id)!;
    await first.whenExited();
    expect(existsSync(firstRoot)).toBe(true);
    const second = await registry.start(startOptions("true", [], { isolate: true }));
    const secondRoot = registry.isolatedRoot(second.id)!;
    await second.whenExited();
    await until(() => !existsSync(firstRoot), "the evicted session's home to go");
    const third = await registry.start(startOptions("sleep", ["30"], { isolate: true }));
    const thirdRoot = registry.isolatedRoot(third.id)!;
    await registry[Symbol.asyncDispose]();
    expect(existsSync(secondRoot)).toBe(false);
    expect(existsSync(thirdRoot)).toBe(false);
  });

  test("a spawn that fails leaves no isolated home behind", async () => {
    await using registry = testRegistry();
    const { liveIsolatedHomes } = await import("../../src/session/isolation.ts");
    const before = liveIsolatedHomes();
    await expect(registry.start(startOptions("/nonexistent/program", [], { isolate: true }))).rejects.toThrow();
    expect(liveIsolatedHomes()).toBe(before);
  });
});
