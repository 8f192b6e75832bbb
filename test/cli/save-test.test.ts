/**
 * save_test end to end: an agent's session over MCP, saved, then rerun with `tui-tester test` as CI
 * would; and the runner features that go with it (optional waits, after: "input", masks, --repeat,
 * obsolete goldens, --shard, the JSON Schema, the fake clock).
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { connect, type TestClient } from "../e2e/client.ts";
import { BUN, fixture } from "../helpers.ts";
import { openTab } from "../web/ws-client.ts";
import { bash, runCli, scratch, shellSteps } from "./cli-helpers.ts";

setDefaultTimeout(60_000);
let c: TestClient;
let dir: Awaited<ReturnType<typeof scratch>>;
beforeAll(async () => {
  dir = await scratch();
  c = await connect({ cwd: dir.dir, env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
});
afterAll(async () => {
  await c[Symbol.asyncDispose]();
  await dir[Symbol.asyncDispose]();
});

const shell = async (extra: Record<string, unknown> = {}) => {
  const { sessionId } = await c.ok("start_session", bash({ cols: 50, rows: 8, ...extra }));
  await c.ok("wait_for_text", { sessionId, pattern: "t$", errorOnTimeout: true });
  return sessionId as string;
};
const readJson = async (path: string) => JSON.parse(await Bun.file(join(dir.dir, path)).text());

describe("save_test", () => {
  test("writes a test of the session that reruns green; every input is a step with a wait on new text", async () => {
    await dir.write("data.txt", "alpha\nbeta\n");
    const id = await shell();
    await c.ok("send_text", { sessionId: id, text: "cat data.txt\r" });
    await c.ok("send_keys", {
      sessionId: id,
      keys: ["e", "c", "h", "o", "space", "o", "k", "enter"],
      waitFor: { pattern: "^ok$", regex: true, regexFlags: "m" },
    });
    await c.ok("run_script", { sessionId: id, steps: [{ type: "assert_text", pattern: "beta" }] });
    const saved = await c.ok("save_test", { sessionId: id, path: "t/cat.tui.json" });
    expect(saved.goldens).toHaveLength(1);
    const file = await readJson("t/cat.tui.json");
    expect(file.session).toMatchObject({
      command: "bash",
      args: ["--norc", "--noprofile"],
      cwd: "..",
      env: { PS1: "t$ " },
      cols: 50,
      rows: 8,
    });
    expect(file.steps.map((s: any) => s.type)).toEqual([
      "wait_for_text",
      "send_text",
      "send_keys",
      "assert_text",
      "expect_snapshot",
    ]);
    // the agent's own wait_for_text came before the first input, so no ready wait is added
    expect(file.steps[0]).toEqual({ type: "wait_for_text", pattern: "t$" });
    expect(file.steps[1]).toEqual({
      type: "send_text",
      text: "cat data.txt\r",
      waitFor: { pattern: "t$", after: "input" },
    });
    expect(file.steps[2].waitFor).toEqual({ pattern: "^ok$", regex: true, regexFlags: "m", after: "input" });
    const rerun = await runCli(["t/cat.tui.json", "--repeat", "3", "--workers", "2", "--ci"], { cwd: dir.dir });
    expect(rerun.stderr).toContain("3 passed");
    expect(rerun.code).toBe(0);

    // a change in what the app shows fails the saved test with the diff
    await dir.write("data.txt", "alpha\nGAMMA\n");
    const changed = await runCli(["t/cat.tui.json", "--timeout", "20000"], { cwd: dir.dir });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain('"beta" is not on the screen');
    await dir.write("data.txt", "alpha\nbeta\n");
  });

  test("an existing path is refused unless overwrite: true", async () => {
    const id = await shell();
    await c.ok("send_text", { sessionId: id, text: "echo one\r" });
    await c.ok("save_test", { sessionId: id, path: "t/twice.tui.yaml", snapshots: "none" });
    const refused = await c.call("save_test", { sessionId: id, path: "t/twice.tui.yaml" });
    expect(refused.isError).toBe(true);
    expect(refused.data.error.code).toBe("FILE_EXISTS");
    expect(refused.data.error.hint).toContain("overwrite: true");
    const bad = await c.call("save_test", { sessionId: id, path: "t/plain.json" });
    expect(bad.data.error.code).toBe("INVALID_ARGUMENT");
    await c.ok("save_test", { sessionId: id, path: "t/twice.tui.yaml", overwrite: true });
    const yaml = Bun.YAML.parse(await Bun.file(join(dir.dir, "t/twice.tui.yaml")).text()) as any;
    expect(yaml.steps.at(-1)).toMatchObject({ type: "expect_snapshot", name: "twice-end" });
    expect(await Bun.file(join(dir.dir, "t/twice.tui.yaml")).text()).toStartWith("# Written by tui-tester save_test");
    expect((await runCli(["t/twice.tui.yaml", "--ci"], { cwd: dir.dir })).code).toBe(0);
  });

  test("an exited session is saved, and its test passes", async () => {
    const id = await shell();
    await c.ok("send_text", {
      sessionId: id,
      text: "echo leaving\r",
      waitFor: { pattern: "^leaving$", regex: true, regexFlags: "m" },
    });
    await c.ok("send_text", { sessionId: id, text: "exit 3\r" });
    // a wait ends early when the process exits
    expect(
      (await c.ok("wait_for_text", { sessionId: id, pattern: "NEVER", timeoutMs: 10_000, errorOnTimeout: false }))
        .exited,
    ).toBe(true);
    const saved = await c.ok("save_test", { sessionId: id, path: "t/exited.tui.json", snapshots: "waits" });
    expect(saved.goldens.length).toBe(2);
    // the program's own exit code is checked before the end snapshot
    const file = JSON.parse(await Bun.file(join(dir.dir, "t/exited.tui.json")).text());
    expect(file.steps.slice(-2)).toEqual([
      { type: "expect_exit", code: 3 },
      { type: "expect_snapshot", name: "exited-end" },
    ]);
    const rerun = await runCli(["t/exited.tui.json", "--ci"], { cwd: dir.dir });
    expect(rerun.code).toBe(0);
    // and a program that now exits otherwise fails the saved test
    await Bun.write(
      join(dir.dir, "t/exited.tui.json"),
      JSON.stringify({
        ...file,
        steps: file.steps.map((s: { text?: string }) => (s.text === "exit 3\r" ? { ...s, text: "exit 5\r" } : s)),
      }),
    );
    const changed = await runCli(["t/exited.tui.json", "--ci"], { cwd: dir.dir });
    expect(changed.code).toBe(1);
    expect(changed.stderr).toContain("expected exit code 3, got 5");
  });

  test("a session stopped with stop_session gets no expect_exit: the stop was not the program's", async () => {
    const id = await shell();
    await c.ok("send_text", {
      sessionId: id,
      text: "echo hi\r",
      waitFor: { pattern: "^hi$", regex: true, regexFlags: "m" },
    });
    await c.ok("stop_session", { sessionId: id });
    await c.ok("save_test", { sessionId: id, path: "t/stopped.tui.json", snapshots: "none" });
    const file = JSON.parse(await Bun.file(join(dir.dir, "t/stopped.tui.json")).text());
    expect(file.steps.map((s: { type: string }) => s.type)).not.toContain("expect_exit");
  });

  test("a human's typing in the web viewer is in the saved test as the same step types", async () => {
    const { sessionId } = await c.ok("start_session", {
      command: BUN,
      args: [fixture("echo-keys.ts")],
      cols: 60,
      rows: 10,
    });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    await c.ok("send_text", { sessionId, text: "a", waitFor: { pattern: "KEY 61" } });
    const { url } = await c.ok("web_viewer", { sessionId });
    const tab = await openTab(url);
    tab.send({ type: "attach", id: sessionId });
    await tab.takeControl(sessionId);
    tab.send({ type: "input", data: "h" });
    tab.send({ type: "input", data: "i" });
    await c.ok("wait_for_text", { sessionId, pattern: "KEY (68)?69", regex: true, errorOnTimeout: true });
    tab.send({ type: "input", data: "\x1b[B" });
    await c.ok("wait_for_text", { sessionId, pattern: "KEY 1b5b42", errorOnTimeout: true });
    tab.send({ type: "release" });
    await tab.close();
    await c.ok("send_text", { sessionId, text: "z", waitFor: { pattern: "KEY 7a" } });
    await c.ok("save_test", { sessionId, path: "t/human.tui.json", snapshots: "none" });
    const steps = (await readJson("t/human.tui.json")).steps;
    const human = steps.filter((s: any) => s.label === "typed by a human in the web viewer");
    expect(human.map((s: any) => [s.type, s.text ?? s.keys])).toEqual([
      ["send_text", "hi"],
      ["send_keys", "down"],
    ]);
    expect(steps.findIndex((s: any) => s.text === "hi")).toBeLessThan(steps.findIndex((s: any) => s.text === "z"));
    const rerun = await runCli(["t/human.tui.json"], { cwd: dir.dir });
    expect(rerun.code).toBe(0);
  });
});

describe("save_test: more step types, and the history's bound", () => {
  test("mouse, resize and paste calls are steps; the saved test replays them", async () => {
    const { sessionId } = await c.ok("start_session", {
      command: BUN,
      args: [fixture("mouse-app.ts"), "1000,1006,2004"],
      cols: 60,
      rows: 20,
    });
    await c.ok("wait_for_text", { sessionId, pattern: "READY" });
    await c.ok("mouse", { sessionId, action: "click", text: "CLICK ME" });
    await c.ok("resize", { sessionId, cols: 70, rows: 20 });
    await c.ok("paste", { sessionId, text: "x" });
    await c.ok("save_test", { sessionId, path: "t/mouse.tui.json", snapshots: "none" });
    const steps = (await readJson("t/mouse.tui.json")).steps;
    // the fixture does not redraw on a resize: no new text, so an idle wait follows it
    expect(steps.map((s: any) => s.type)).toEqual(["wait_for_text", "mouse", "resize", "wait_for_idle", "paste"]);
    expect(steps[1]).toMatchObject({ action: "click", text: "CLICK ME", waitFor: { after: "input" } });
    expect(steps[2]).toMatchObject({ cols: 70, rows: 20 });
    expect((await runCli(["t/mouse.tui.json"], { cwd: dir.dir })).code).toBe(0);
  });

  test("past 500 entries the history stops recording, and save_test says why instead of writing half a test", async () => {
    const id = await shell();
    const checks = Array.from({ length: 501 }, () => ({ type: "assert_text", pattern: "t$" }));
    await c.ok("run_script", { sessionId: id, steps: checks, returnFinalSnapshot: false });
    const refused = await c.call("save_test", { sessionId: id, path: "t/full.tui.json" });
    expect(refused.isError).toBe(true);
    expect(refused.data.error.code).toBe("HISTORY_FULL");
    expect(refused.text).toContain("500 entries");
    expect(existsSync(join(dir.dir, "t/full.tui.json"))).toBe(false);
  });
});

describe("waits and masks in the engine", () => {
  test('waitFor { after: "input" } ignores text already on the screen; wait_for_text takes it too', async () => {
    const id = await shell();
    await c.ok("send_text", { sessionId: id, text: "echo Setup\r", waitFor: { pattern: "t$", after: "input" } });
    const old = await c.ok("send_text", {
      sessionId: id,
      text: "true\r",
      waitFor: { pattern: "Setup", after: "input", timeoutMs: 300 },
    });
    expect(old.waitFor.matched).toBe(false);
    const plain = await c.ok("send_text", {
      sessionId: id,
      text: "true\r",
      waitFor: { pattern: "Setup", timeoutMs: 300 },
    });
    expect(plain.waitFor.matched).toBe(true);
    await c.ok("send_text", { sessionId: id, text: "sleep 0.2; echo Setup again\r" });
    const fresh = await c.ok("wait_for_text", { sessionId: id, pattern: "Setup", after: "input", timeoutMs: 10_000 });
    expect(fresh.matched).toBe(true);
    expect(fresh.screen.text).toContain("Setup again");
  });

  test("expect_snapshot masks: a regex and a region hide what differs, in golden and screen", async () => {
    const id = await shell();
    const golden = join(dir.dir, "masks");
    await c.ok("send_text", {
      sessionId: id,
      text: "clear; echo at $(date +%N) pid $$\r",
      waitFor: { pattern: "^at \\d+", regex: true, regexFlags: "m" },
    });
    const regex = [{ regex: String.raw`at \d+` }];
    const region = [{ region: { row: 0, col: 0, rows: 1, cols: 50 } }];
    const write = (name: string, mask: unknown) =>
      c.ok("run_script", {
        sessionId: id,
        steps: [{ type: "expect_snapshot", name, dir: golden, update: "missing", mask }],
      });
    await write("by-regex", regex);
    await write("by-region", region);
    await c.ok("send_text", {
      sessionId: id,
      text: "clear; echo at $(date +%N) pid $$\r",
      waitFor: { pattern: "^at \\d+", regex: true, regexFlags: "m" },
    });
    const check = (name: string, mask?: unknown) =>
      c.call("run_script", {
        sessionId: id,
        steps: [{ type: "expect_snapshot", name, dir: golden, timeoutMs: 200, ...(mask ? { mask } : {}) }],
      });
    expect((await check("by-regex", regex)).isError).toBe(false);
    expect((await check("by-region", region)).isError).toBe(false);
    expect((await check("by-regex")).text).toContain("Screen differs");
    const bad = await c.call("run_script", {
      sessionId: id,
      steps: [{ type: "expect_snapshot", name: "x", mask: [{ regex: "(" }] }],
    });
    expect(bad.text).toContain("INVALID_REGEX");
  });

  test("start_session clock freezes the date through libfaketime, or says how to get it", async () => {
    const frozen = await c.call("start_session", {
      ...bash(),
      clock: "2026-01-01T00:00:00Z",
      env: { PS1: "t$ ", TZ: "UTC" },
    });
    if (frozen.isError && frozen.data.error.code === "FAKETIME_MISSING") {
      console.warn("skipping the fake clock check: libfaketime not installed (apt-get install faketime)");
    } else {
      const id = frozen.data.sessionId;
      await c.ok("wait_for_text", { sessionId: id, pattern: "t$" });
      const out = await c.ok("send_text", {
        sessionId: id,
        text: "date +%FT%T; sleep 1.1; date +%FT%T\r",
        waitFor: { pattern: "(2026-01-01T00:00:00\\n){2}", regex: true, timeoutMs: 10_000 },
      });
      expect(out.waitFor.matched).toBe(true);
    }
  });
});

describe("tui-tester test", () => {
  test("an inline waitFor that times out fails the step unless optional (on the step or in defaults)", async () => {
    const steps = (extra: Record<string, unknown>) => [
      ...shellSteps("echo hi", "hi"),
      { type: "send_text", text: "true\r", waitFor: { pattern: "NEVER", timeoutMs: 200 }, ...extra },
    ];
    await dir.write("opt/strict.tui.json", { name: "strict", session: bash(), steps: steps({}) });
    const strict = await runCli(["opt/strict.tui.json"], { cwd: dir.dir });
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('"NEVER" did not appear within 200 ms');
    await dir.write("opt/strict.tui.json", [
      { name: "step", session: bash(), steps: steps({ optional: true }) },
      { name: "defaults", session: bash(), defaults: { optional: true }, steps: steps({}) },
    ]);
    const optional = await runCli(["opt/strict.tui.json"], { cwd: dir.dir });
    expect(optional.stderr).toContain("2 passed");
  });

  test("goldens no test uses are reported, and --ci fails on them", async () => {
    await dir.write("old/a.tui.json", {
      name: "a",
      session: bash(),
      steps: [...shellSteps("echo a", "a"), { type: "expect_snapshot", name: "kept" }],
    });
    await dir.write("old/__snapshots__/a.tui.json/unused.txt", "x\n");
    await dir.write("old/__snapshots__/gone.tui.json/orphan.txt", "x\n");
    const first = await runCli(["old"], { cwd: dir.dir });
    expect(first.code).toBe(0);
    expect(first.stderr).toContain("2 golden(s) no test uses");
    expect(first.stderr).toContain(join("old", "__snapshots__", "gone.tui.json", "orphan.txt"));
    const ci = await runCli(["old", "--ci"], { cwd: dir.dir });
    expect(ci.code).toBe(1);
    expect(existsSync(join(dir.dir, "old/__snapshots__/a.tui.json/kept.txt"))).toBe(true);
  });

  test("--shard i/n: the shards' union is every test exactly once", async () => {
    const quick = (n: number) => ({ name: `q${n}`, session: bash(), steps: shellSteps(`echo q${n}`, `q${n}`) });
    await dir.write("shard/one.tui.json", [quick(1), quick(2), quick(3)]);
    await dir.write("shard/two.tui.yaml", Bun.YAML.stringify([quick(4), quick(5)]));
    const seen: string[] = [];
    for (const i of [1, 2, 3]) {
      const run = await runCli(["shard", "--shard", `${i}/3`, "--json"], { cwd: dir.dir });
      expect(run.code).toBe(0);
      seen.push(...JSON.parse(run.stdout).tests.map((t: any) => t.name));
    }
    expect(seen.sort()).toEqual(["q1", "q2", "q3", "q4", "q5"]);
    const bad = await runCli(["shard", "--shard", "4/3"], { cwd: dir.dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--shard takes I/N");
  });

  test("the shipped JSON Schema is current, and a file may name it in $schema", async () => {
    const check = Bun.spawnSync([
      process.execPath,
      join(import.meta.dir, "..", "..", "scripts", "test-schema.ts"),
      "--check",
    ]);
    expect(check.exitCode).toBe(0);
    const schema = await Bun.file(join(import.meta.dir, "..", "..", "schema", "tui-test.schema.json")).json();
    const stepTypes = schema.definitions.test.properties.steps.items.anyOf.map((s: any) => s.properties.type.const);
    expect(stepTypes).toContain("send_keys");
    expect(stepTypes).toContain("expect_snapshot");
    await dir.write("schema/s.tui.json", {
      $schema: "../../schema/tui-test.schema.json",
      name: "s",
      session: bash(),
      steps: shellSteps("echo s", "s"),
    });
    expect((await runCli(["schema"], { cwd: dir.dir })).code).toBe(0);
    expect(readdirSync(join(dir.dir, "schema"))).toContain("s.tui.json");
  });
});
