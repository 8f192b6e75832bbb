/** bash as an interactive REPL: arithmetic, and ctrl+c interrupting a foreground command. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { until } from "../helpers.ts";
import { launch } from "tui-tester";
import { describeApp } from "./helpers.ts";

/** pids of `comm` processes whose parent is `ppid` (Linux /proc). */
function children(ppid: number, comm: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (name === comm && parent === ppid) found.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return found;
}

describeApp("bash", () => {
  const shell = async () => {
    const t = await launch("bash", { args: ["--norc", "--noprofile", "-i"], env: { PS1: "$ ", PROMPT_COMMAND: "" } });
    await t.waitForText(/^\$/m);
    return t;
  };

  test("echo $((6*7)) prints 42", async () => {
    await using sh = await shell();
    const result = await sh.type("echo $((6*7))\r", { waitFor: /^42$/m });
    expect(result.screen!.after!.text).toContain("$ echo $((6*7))\n42\n$");
  });

  test.skipIf(process.platform !== "linux")("ctrl+c interrupts sleep 100 and the prompt comes back", async () => {
    await using sh = await shell();
    await sh.type("sleep 100\r", { captureScreen: false });
    // ctrl+c must reach sleep, not bash still reading the line: wait until sleep really runs
    await until(() => children(sh.pid, "sleep").length === 1, "sleep to start under bash");
    const started = performance.now();
    await sh.press("ctrl+c", { captureScreen: false });
    await until(() => children(sh.pid, "sleep").length === 0, "sleep to be interrupted", 5000);
    // the shell runs commands again, and saw sleep die of SIGINT (128 + 2)
    const after = await sh.type("echo rc=$?\r", { waitFor: /^rc=130$/m });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(after.screen!.after!.text).toMatch(/\$ sleep 100\n\^C\n\$ echo rc=\$\?\nrc=130/);
  });
});
