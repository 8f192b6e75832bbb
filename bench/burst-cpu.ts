/**
 * Server CPU per echo when 32 sessions echo at once: utime + stime of the server process over 10
 * rounds of 32 simultaneous send_text + waitFor calls, after two warm-up rounds. Less sensitive to
 * machine load than latency. `bun bench/burst-cpu.ts [checkout root]` (default: this checkout); to
 * compare revisions, unpack each as bench/ab.sh does and pass each root in turn.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { processEnv } from "./helpers.ts";

const root = process.argv[2] ?? join(import.meta.dir, "..");
const SESSIONS = 32;
const ROUNDS = 10;

/** utime + stime of a process in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
function ticks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [join(root, "src", "main.ts")],
  env: processEnv({ TUI_TESTER_LOG: "silent", TUI_TESTER_OUTPUT: "structured" }),
  stderr: "ignore",
});
const client = new Client({ name: "burst-cpu", version: "0" });
await client.connect(transport);
const pid = transport.pid!;
async function call(name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  return (await client.callTool({ name, arguments: args })).structuredContent as Record<string, any>;
}

const ids: string[] = [];
const bash = { command: "bash", args: ["--norc", "--noprofile"], env: { PS1: "bench$ " } };
for (let i = 0; i < SESSIONS; i++) ids.push((await call("start_session", bash)).sessionId);
for (const id of ids) await call("wait_for_text", { sessionId: id, pattern: "bench$" });
const round = (r: number) =>
  Promise.all(
    ids.map((sessionId, i) => {
      const n = r * 100 + i;
      const waitFor = { pattern: `^${n * 7}$`, regex: true, regexFlags: "m" };
      return call("send_text", { sessionId, text: `echo $((${n}*7))\r`, waitFor });
    }),
  );
await round(0);
await round(1);
const before = ticks(pid);
for (let r = 2; r < ROUNDS + 2; r++) await round(r);
const clockTick = 10; // ms per tick at USER_HZ 100
const perEcho = ((ticks(pid) - before) * clockTick) / (ROUNDS * SESSIONS);
console.log(`${root}: server CPU per echo, ${SESSIONS} at once: ${perEcho.toFixed(2)} ms`);
await client.close();
