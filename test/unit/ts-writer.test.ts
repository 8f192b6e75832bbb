/** save_test's bun test writer: each step type as the library call a person would write, valid TypeScript. */
import { expect, test } from "bun:test";
import { tsTestText } from "../../src/script/ts-writer.ts";

const plan = {
  name: "every step",
  session: {
    command: "./my-app",
    args: ["-v"],
    cwd: "../app",
    env: { NAME: "x", DROP: null },
    cols: 100,
    rows: 30,
    clock: "2026-01-01T00:00:00Z",
    passEnv: ["GH_TOKEN"],
  },
  steps: [
    { type: "wait_for_text", pattern: "Ready", timeoutMs: 15000 },
    { type: "send_keys", keys: ["down", "down"], label: "typed by a human in the web viewer" },
    { type: "wait_for_idle", idleMs: 300, label: "no new text appeared after the input above" },
    {
      type: "send_text",
      text: "a/b\r",
      waitFor: { pattern: "^done \\d+$", regex: true, regexFlags: "m", after: "input" },
    },
    { type: "type_text", text: "slow", cps: 20 },
    { type: "paste", text: "pasted" },
    { type: "mouse", action: "click", row: 3, col: 4 },
    { type: "resize", cols: 90, rows: 20 },
    { type: "assert_text", pattern: "Error", negate: true },
    { type: "send_text", text: "${env:TUI_SECRET_1}", secret: true },
    { type: "expect_snapshot", name: "hl", format: "ansi", region: { row: 2, col: 1, rows: 1, cols: 5 } },
    {
      type: "expect_snapshot",
      name: "end",
      mask: [{ regex: "\\d\\d:\\d\\d" }, { region: { row: 0, col: 70, rows: 1, cols: 8 } }],
    },
  ],
};

test("each step becomes one library call; the file is valid TypeScript", () => {
  const text = tsTestText(plan, "/t/every.test.ts");
  expect(() => new Bun.Transpiler({ loader: "ts" }).transformSync(text)).not.toThrow();
  for (const line of [
    'await using app = await launch("./my-app", {',
    'cwd: join(import.meta.dir, "../app"),',
    'env: { TZ: "UTC", LANG: "C.UTF-8", NAME: "x", DROP: null },',
    'clock: "2026-01-01T00:00:00Z",',
    "isolate: true,",
    'passEnv: ["GH_TOKEN"],',
    'await app.waitForText("Ready", { timeoutMs: 15000 });',
    "// typed by a human in the web viewer",
    'await app.press(["down", "down"]);',
    "await app.waitForIdle({ idleMs: 300 });",
    'await app.type("a/b\\r", { waitFor: { pattern: /^done \\d+$/m, after: "input" } });',
    'await app.type("slow", { cps: 20 });',
    'await app.paste("pasted");',
    'await app.mouse({ action: "click", row: 3, col: 4 });',
    "await app.resize(90, 20);",
    'await expect(app).not.toShowText("Error", { timeoutMs: 0 });',
    'await app.type(secret("TUI_SECRET_1"), { secret: true });',
    'await expect(app).toMatchScreenSnapshot("hl", { region: { row: 2, col: 1, rows: 1, cols: 5 }, format: "ansi" });',
    'await expect(app).toMatchScreenSnapshot("end", { mask: [/\\d\\d:\\d\\d/, { row: 0, col: 70, rows: 1, cols: 8 }] });',
    "}, 30_000);",
  ])
    expect(text).toContain(line);
  expect(text).toContain("function secret(name: string): string {");
  expect(text).not.toContain("sessionId");
});

test("send_raw and hold_key have no library method: refused with the file kinds that can hold them", () => {
  expect(() =>
    tsTestText({ name: "raw", session: { command: "sh" }, steps: [{ type: "send_raw", hex: "1b" }] }, "/t/raw.test.ts"),
  ).toThrow(/send_raw.*cannot be a bun test/);
});
