/**
 * Flake benchmark, library side: the same programs as ../cli/*.tui.yaml, written the natural way
 * (an input's waitFor, then the matchers). `bun run bench:flake` runs this file many times.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import { launch } from "tui-tester";
import "tui-tester/expect";

setDefaultTimeout(30_000);
const has = (app: string) => Bun.which(app) !== null;
const bash = () => launch("bash", { args: ["--norc", "--noprofile"], env: { PS1: "t$ " }, cols: 60, rows: 10 });

test("bash echo", async () => {
  await using t = await bash();
  await t.waitForText("t$");
  await t.type("echo $((6*7))\r", { waitFor: /^42$/m });
  await expect(t).toShowText("42");
  await expect(t).toShowText(/^t\$$/m);
});

test.skipIf(!has("python3"))("python3 REPL", async () => {
  await using t = await launch("python3", { args: ["-q"], env: { PYTHONSTARTUP: "" }, cols: 60, rows: 10 });
  await t.waitForText(">>>");
  await t.type("print(6 * 7)\r", { waitFor: /^42$/m });
  await expect(t).toShowText(/^>>>$/m);
  await t.type("exit()\r");
  await expect(t).toHaveExited({ code: 0 });
});

test("exit code", async () => {
  await using t = await bash();
  await t.waitForText("t$");
  await t.type("exit 7\r");
  await expect(t).toHaveExited({ code: 7 });
});

test("golden of a printed table", async () => {
  await using t = await launch("bash", { args: ["--norc", "--noprofile"], env: { PS1: "t$ " }, cols: 40, rows: 8 });
  await t.waitForText("t$");
  await t.type("printf '%-6s|%4s\\n' name qty apple 3 pear 12\r", { waitFor: "pear" });
  await expect(t).toMatchScreenSnapshot("table", { region: { row: 1, rows: 3 } });
});

test.skipIf(!has("less"))("less pages down and quits", async () => {
  await using t = await launch("less", { args: [join(import.meta.dir, "..", "lines.txt")], cols: 60, rows: 10 });
  await t.waitForText("line 9");
  await t.press("space", { waitFor: "line 18" });
  await expect(t).not.toShowText(/^line 1$/m);
  await t.press("q");
  await expect(t).toHaveExited({ code: 0 });
});

test.skipIf(!has("vim"))("vim insert mode comes and goes", async () => {
  await using t = await launch("vim", { args: ["-u", "NONE", "-i", "NONE", "-N", "-n"], cols: 60, rows: 10 });
  await t.waitForText("~");
  await t.type("ihello world", { waitFor: "-- INSERT --" });
  await expect(t).toShowText("hello world");
  await t.press("escape");
  await expect(t).not.toShowText("-- INSERT --");
  await t.type(":q!\r");
  await expect(t).toHaveExited({ code: 0 });
});

test.skipIf(!has("nano"))("nano writes a file", async () => {
  const file = "/tmp/tui-flake-nano-lib.txt";
  await Bun.$`rm -f ${file}`.quiet();
  await using t = await launch("nano", { args: [file], cols: 60, rows: 12 });
  await t.waitForText("^G");
  await t.type("saved by nano", { waitFor: "saved by nano" });
  await t.press("ctrl+o", { waitFor: "File Name to Write" });
  await t.press("enter", { waitFor: "Wrote 1 line" });
  await expect(t).toHaveFile(file, { equals: "saved by nano\n" });
  await t.press("ctrl+x");
  await expect(t).toHaveExited({ code: 0 });
});

test.skipIf(!has("htop"))("htop F2 Setup then F10 back", async () => {
  await using t = await launch("htop", { cols: 120, rows: 40 });
  await t.waitForText("Load average");
  await t.press("F2", { waitFor: /Categories[\s\S]*F10Done/ });
  await expect(t).toShowText("Display options");
  await t.press("F10", { waitFor: "F2Setup" });
  await expect(t).not.toShowText("Display options");
  await t.press("q");
  await expect(t).toHaveExited({ code: 0 });
});

test.skipIf(!has("dialog"))("dialog yes/no answers no", async () => {
  await using t = await launch("dialog", {
    args: ["--yesno", "Continue the flake run?", "8", "40"],
    cols: 60,
    rows: 12,
  });
  await t.waitForText("Continue the flake run?");
  await t.press(["right", "enter"]);
  await expect(t).toHaveExited({ code: 1 });
});

test.skipIf(!has("mc"))("mc opens the Left menu", async () => {
  await using t = await launch("mc", {
    args: ["--nosubshell"],
    env: { MC_HOME: "/tmp/tui-flake-mc" },
    cols: 100,
    rows: 30,
  });
  await t.waitForText("10Quit");
  await t.press(["F9", "down"], { waitFor: "Listing format" });
  await expect(t).toShowText("Quick view");
  await t.press(["escape", "escape"]);
  await expect(t).not.toShowText("Listing format");
  await t.press("F10");
  await expect(t).toHaveExited({ code: 0 });
});

test("resize re-lays out the demo", async () => {
  await using t = await launch("bun", { args: [join(import.meta.dir, "..", "..", "..", "scripts", "demo-tui.ts")] });
  await t.waitForText("READY");
  await t.resize(50, 12, { waitFor: "50x12" });
  await expect(t).not.toShowText("80x24");
  await t.press("q");
  await expect(t).toHaveExited({ code: 0 });
});
