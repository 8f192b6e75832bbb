/** bash as an interactive REPL: arithmetic, and ctrl+c interrupting a foreground command. */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { until } from "../helpers.ts";
import { describeApp, inputUntil, useServer, waitText } from "./helpers.ts";

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
  const h = useServer();

  const shell = async () => {
    const started = await h.start({ command: "bash", args: ["--norc", "--noprofile", "-i"], env: { PS1: "$ ", PROMPT_COMMAND: "" }, cols: 80, rows: 24 });
    await waitText(h.c, started.sessionId, "^\\$", { regex: true, regexFlags: "m" });
    return started;
  };

  test("echo $((6*7)) prints 42", async () => {
    const { sessionId } = await shell();
    const result = await inputUntil(h.c, "send_text", { sessionId, text: "echo $((6*7))\r" }, "^42$", { regex: true, regexFlags: "m" });
    expect(result.screen.after.text).toContain("$ echo $((6*7))\n42\n$");
  });

  test.skipIf(process.platform !== "linux")("ctrl+c interrupts sleep 100 and the prompt comes back", async () => {
    const { sessionId, info } = await shell();
    await h.c.ok("send_text", { sessionId, text: "sleep 100\r", captureScreen: false });
    // ctrl+c must reach sleep, not bash still reading the line: wait until sleep really runs
    await until(() => children(info.pid, "sleep").length === 1, "sleep to start under bash");
    const started = performance.now();
    await h.c.ok("send_keys", { sessionId, keys: "ctrl+c", captureScreen: false });
    await until(() => children(info.pid, "sleep").length === 0, "sleep to be interrupted", 5000);
    // the shell runs commands again, and saw sleep die of SIGINT (128 + 2)
    const after = await inputUntil(h.c, "send_text", { sessionId, text: "echo rc=$?\r" }, "^rc=130$", { regex: true, regexFlags: "m" });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(after.screen.after.text).toMatch(/\$ sleep 100\n\^C\n\$ echo rc=\$\?\nrc=130/);
  });
});
