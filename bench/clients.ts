#!/usr/bin/env bun
/**
 * What real MCP clients deliver to the model: the five agent tasks of bench/agent-tasks.ts run through
 * Claude Code, Codex CLI, opencode and Copilot CLI (test/clients/: each client headless against a fake
 * model API on 127.0.0.1 that plays the task's tool calls), and the o200k tokens of every tool result
 * as the client handed it to the model, in the default output mode, with TUI_TESTER_OUTPUT=structured and
 * with TUI_TESTER_SCREEN_DETAIL=diff.
 * Plus a 3,000-line scrollback read per client: did it arrive whole, cut, or spilled with the file named.
 *   bun run bench:clients                  every installed client
 *   bun run bench:clients claude codex     only these
 *   bun run bench:clients --write          also rewrite the clients block of bench/README.md
 * Clients come from TUI_TESTER_CLIENTS_DIR (default ${TMPDIR:-/tmp}/clients); a missing one is skipped.
 */
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import {
  CLIENTS,
  type ClientName,
  type ClientRun,
  clientBinary,
  clientVersion,
  INSTALL,
  killClients,
  startClient,
} from "../test/clients/clients.ts";
import { type Delivered, withoutClientNotes } from "../test/clients/script.ts";
import { type Call, SHELL, tasks } from "./agent-tasks.ts";
import { stamp, thousands, writeBlock } from "./readme-block.ts";

const SCROLLBACK_LINES = 3000;
const MODES = {
  default: {},
  structured: { TUI_TESTER_OUTPUT: "structured" },
  diff: { TUI_TESTER_SCREEN_DETAIL: "diff" },
} as const;
type Mode = keyof typeof MODES;

interface ModeResult {
  tasks: Record<string, number | null>;
  total: number;
  /** Did a settle line ("Settled in 4 ms: ...") reach the model? */
  settle: boolean;
  scrollback: string;
}

/** A failed call, in whichever shape the client passed the error on. */
const failed = (d: Delivered, text: string) =>
  d.isError === true || /(^|\n)(MCP server '[^']*': )?Error [A-Z_]+:/.test(text) || /"error":\{"code":"/.test(text);

const sessionOf = (text: string) => text.match(/tui-[a-z0-9]+-\d+/)?.[0];

/** Each scrollback line names its number, so a line is found in plain text and inside JSON strings alike. */
const scrollbackLine = (n: number | string) => `line ${n} of the scrollback`;

/** How many of the lines 1..SCROLLBACK_LINES the text holds. */
function linesIn(text: string): number {
  const lines = new Set([...text.matchAll(new RegExp(scrollbackLine("(\\d+)"), "g"))].map((m) => m[1]));
  let present = 0;
  for (let i = 1; i <= SCROLLBACK_LINES; i++) if (lines.has(String(i))) present++;
  return present;
}

/** How the 3,000 lines (about 83 KB, over the 16 KiB inline limit) reached the model. */
function scrollbackOutcome(text: string): string {
  const present = linesIn(text);
  const size = `${thousands(countTokens(text))} tokens`;
  const ours = text.match(/Full text: (\S+\.txt)/)?.[1];
  if (ours) {
    const whole = existsSync(ours) ? linesIn(readFileSync(ours, "utf8")) : 0;
    return `spilled by tui-tester to \`${basename(ours)}\` (${thousands(whole)} lines in it), ${thousands(present)} lines inline (${size})`;
  }
  const theirs = text.match(/(persisted-output|Output too large|saved to|written to)[^\n]*?(\/\S+)/);
  if (theirs)
    return `spilled by the client to \`${basename(theirs[2]!.replace(/[.,;:)]+$/, ""))}\`, ${thousands(present)} lines inline (${size})`;
  if (present === SCROLLBACK_LINES) return `whole (${size})`;
  return `cut: ${thousands(present)} of ${thousands(SCROLLBACK_LINES)} lines, no file named (${size})`;
}

async function scrollbackRead(run: ClientRun): Promise<string> {
  const started = await run.call("start_session", SHELL);
  const sessionId = sessionOf(started.text);
  await run.call("send_text", {
    sessionId,
    text: `seq -f '${scrollbackLine("%g")}' ${SCROLLBACK_LINES}\r`,
    waitFor: { pattern: `${scrollbackLine(SCROLLBACK_LINES)}\n$`, regex: false },
  });
  const read = await run.call("get_text", { sessionId, includeScrollback: true, maxScrollbackLines: 5000 });
  await run.call("stop_session", { sessionId });
  return scrollbackOutcome(withoutClientNotes(read.text));
}

async function measure(name: ClientName, mode: Mode): Promise<ModeResult> {
  await using run = await startClient(name, { serverEnv: { ...MODES[mode] }, timeoutMs: 900_000 });
  const dir = mkdtempSync(join(tmpdir(), "clients-bench-"));
  const result: ModeResult = { tasks: {}, total: 0, settle: false, scrollback: "" };
  try {
    for (const task of tasks) {
      if (!Bun.which(task.app)) {
        process.stderr.write(`skip ${task.name}: ${task.app} not installed\n`);
        result.tasks[task.name] = null;
        continue;
      }
      let tokens = 0;
      const call: Call = async (tool, args = {}) => {
        const delivered = await run.call(tool, args);
        const text = withoutClientNotes(delivered.text);
        tokens += countTokens(text);
        result.settle ||= /Settled in \d+ ms/.test(text);
        if (failed(delivered, text)) throw new Error(`${name} ${task.name}: ${tool} failed: ${text.slice(0, 300)}`);
        return { sessionId: sessionOf(text) };
      };
      await task.run(call, dir);
      result.tasks[task.name] = tokens;
      result.total += tokens;
    }
    result.scrollback = await scrollbackRead(run);
    const code = await run.finish();
    if (code !== 0) process.stderr.write(`${name} exited with code ${code}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`${name} ${mode}: ${result.total} tokens\n`);
  return result;
}

for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    killClients();
    process.exit(130);
  });

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("--")) as ClientName[];
const names = (Object.keys(CLIENTS) as ClientName[]).filter((n) => wanted.length === 0 || wanted.includes(n));
const rows: { name: ClientName; results: Record<Mode, ModeResult> }[] = [];
for (const name of names) {
  if (!clientBinary(name)) {
    process.stderr.write(`skip ${CLIENTS[name].label}: not installed; ${INSTALL}\n`);
    continue;
  }
  const results = {} as Record<Mode, ModeResult>;
  for (const mode of Object.keys(MODES) as Mode[]) results[mode] = await measure(name, mode);
  rows.push({ name, results });
}

if (rows.length === 0) {
  process.stderr.write(`no client measured: none installed in TUI_TESTER_CLIENTS_DIR; ${INSTALL}\n`);
  process.exit(1);
}

const label = (name: ClientName) => `${CLIENTS[name].label} ${clientVersion(name)}`;
const yes = (b: boolean) => (b ? "yes" : "**no**");
const tokenTable = [
  `| o200k tokens delivered | ${tasks.map((t) => t.name).join(" | ")} | five tasks | five tasks, structured | five tasks, screenDetail diff | settle line (default / structured) |`,
  `|---|${tasks.map(() => "---:|").join("")}---:|---:|---:|---|`,
  ...rows.map(({ name, results: r }) =>
    [
      label(name),
      ...tasks.map((t) => thousands(r.default.tasks[t.name] ?? null)),
      `**${thousands(r.default.total)}**`,
      thousands(r.structured.total),
      thousands(r.diff.total),
      `${yes(r.default.settle)} / ${yes(r.structured.settle)}`,
    ].join(" | "),
  ),
].map((line) => (line.startsWith("|") ? line : `| ${line} |`));
const scrollbackTable = [
  `| ${SCROLLBACK_LINES.toLocaleString("en-US")}-line scrollback read | default | structured |`,
  "|---|---|---|",
  ...rows.map(({ name, results: r }) => `| ${label(name)} | ${r.default.scrollback} | ${r.structured.scrollback} |`),
];
const body = `Measured ${stamp()}:\n\n${tokenTable.join("\n")}\n\n${scrollbackTable.join("\n")}`;
console.log(body);
if (process.argv.includes("--write")) writeBlock(join(import.meta.dir, "README.md"), "clients", body);
