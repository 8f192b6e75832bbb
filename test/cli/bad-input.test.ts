/** Bad files and bad flags: exit 2 before anything runs, naming the file, the test, the step index and the fix. */
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { bash, runCli, scratch } from "./cli-helpers.ts";

/** A valid test that leaves a file behind if it ever runs. */
const tripwire = {
  name: "tripwire",
  session: bash(),
  steps: [
    { type: "send_text", text: "touch RAN\r" },
    { type: "wait_for_idle", idleMs: 100 },
  ],
};

test("an unknown step type: file, test, step index and the list of step types; nothing runs", async () => {
  await using s = await scratch();
  await s.write("ok.tui.json", tripwire);
  await s.write("bad.tui.json", [
    tripwire,
    {
      name: "typo",
      session: bash(),
      steps: [
        { type: "wait_for_text", pattern: "$" },
        { type: "send_kyes", keys: "Enter" },
      ],
    },
  ]);
  const run = await runCli([], { cwd: s.dir });
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toContain("problem(s) in the test files; nothing was run");
  expect(run.stderr).toContain('bad.tui.json tests[1] ("typo") steps:');
  expect(run.stderr).toMatch(
    /× Invalid type: Expected \(.*"send_keys".*"expect_file"\) but received "send_kyes"\n\s+→ at steps\.1\.type\n/,
  );
  expect(run.stderr).toContain('Fix: each step is { "type": a run_script step type');
  expect(existsSync(join(s.dir, "RAN"))).toBe(false);
});

test("every problem in every file is listed at once", async () => {
  await using s = await scratch();
  await s.write("syntax.tui.json", '{ "name": "x", "session": { "command": "bash" }, "steps": [ } ');
  await s.write("yaml.tui.yaml", "- name: [unclosed\n");
  await s.write("shape.tui.json", { name: "no steps", session: bash() });
  await s.write("session.tui.json", {
    name: "bad session",
    session: { command: "bash", cols: "wide" },
    steps: [
      { type: "sleep", durationMs: 1 },
      { type: "send_keys", keys: "ctrl+alsobad" },
    ],
  });
  await s.write("key.tui.json", {
    name: "bad key",
    session: bash(),
    steps: [
      { type: "sleep", durationMs: 1 },
      { type: "send_keys", keys: "ctrl+nosuchkey" },
    ],
  });
  await s.write("regex.tui.json", {
    name: "bad regex",
    session: bash(),
    steps: [{ type: "wait_for_text", pattern: "(", regex: true }],
  });
  await s.write("dir.tui.json", {
    name: "sets dir",
    session: bash(),
    steps: [{ type: "expect_snapshot", name: "x", dir: "/tmp" }],
  });
  await s.write("label.tui.json", {
    name: "bad label",
    session: bash(),
    steps: [
      { type: "sleep", durationMs: 1 },
      { type: "sleep", durationMs: 1, label: 5 },
    ],
  });
  await s.write("dup.tui.json", [
    { name: "same", session: bash(), steps: [{ type: "expect_snapshot", name: "shot" }] },
    { name: "same", session: bash(), steps: [{ type: "expect_snapshot", name: "shot" }] },
  ]);
  const run = await runCli([], { cwd: s.dir });
  expect(run.code).toBe(2);
  const e = run.stderr;
  expect(e).toContain("syntax.tui.json: not valid JSON");
  expect(e).toContain("yaml.tui.yaml: not valid YAML");
  expect(e).toMatch(
    /shape\.tui\.json:\n\s+× Invalid key: Expected "steps" but received undefined\n\s+→ at steps\n\s+Fix: a test is \{ "name": string, "session"/,
  );
  expect(e).toMatch(
    /session\.tui\.json \("bad session"\) session:\n\s+× Invalid type: Expected number but received "wide"\n\s+→ at cols\n\s+Fix: "session" takes start_session's arguments/,
  );
  expect(e).toContain('key.tui.json ("bad key") steps[1] (send_keys)');
  expect(e).toContain('regex.tui.json ("bad regex") steps[0] (wait_for_text)');
  expect(e).toContain(
    'dir.tui.json ("sets dir") steps[0] (expect_snapshot): "dir" and "update" are set by the test runner',
  );
  expect(e).toContain('dup.tui.json tests[1]: a second test is named "same"');
  expect(e).toContain('the golden "shot.txt" is already used by same steps[0]');
  expect(e).toMatch(
    /label\.tui\.json \("bad label"\) steps:\n\s+× Invalid type: Expected string but received 5\n\s+→ at steps\.1\.label/,
  );
  expect(e).toContain('session.tui.json ("bad session") steps[1] (send_keys): Unknown key "ctrl+alsobad"');
  expect(e).toContain("11 problem(s)");
});

test("usage errors exit 2 with the reason and a pointer to --help", async () => {
  await using s = await scratch();
  await s.write("ok.tui.json", tripwire);
  const cases: [string[], string][] = [
    [["--workers", "0"], "--workers must be an integer from 1 to 256"],
    [["--retries", "many"], "--retries must be an integer"],
    [["--frobnicate"], "--frobnicate"],
    [["--filter", "("], "--filter is not a valid regular expression"],
    [["--ci", "-u"], "--ci and --update-snapshots contradict"],
    [["nope.tui.json"], 'No such file or directory: "nope.tui.json"'],
    [["nothing/*.tui.json"], 'No file matches the glob "nothing/*.tui.json"'],
  ];
  for (const [args, message] of cases) {
    const run = await runCli(args, { cwd: s.dir });
    expect({ args, code: run.code }).toEqual({ args, code: 2 });
    expect(run.stderr).toContain(message);
    expect(run.stderr).toContain('Run "tui-tester test --help" for usage.');
  }
  expect(existsSync(join(s.dir, "RAN"))).toBe(false);
  await using empty = await scratch();
  const none = await runCli([], { cwd: empty.dir });
  expect(none.code).toBe(2);
  expect(none.stderr).toContain("No test files (*.tui.json, *.tui.yaml)");
});

test("test --help documents the file format and every option; the main --help mentions test mode", async () => {
  await using s = await scratch();
  const help = await runCli(["--help"], { cwd: s.dir });
  expect(help.code).toBe(0);
  for (const option of [
    "--workers",
    "--timeout",
    "--retries",
    "--filter",
    "--update-snapshots",
    "--ci",
    "--junit",
    "--json",
    "--record-failures",
    "expect_snapshot",
    "__snapshots__",
  ])
    expect(help.stdout).toContain(option);
  const main = Bun.spawnSync([process.execPath, join(import.meta.dir, "..", "..", "src", "main.ts"), "--help"]);
  expect(main.stdout.toString()).toContain("tui-tester test [options] [paths or globs...]");
});
