#!/usr/bin/env bun
/**
 * Mutation testing with StrykerJS (command runner over `bun test`): for each group of modules, the
 * tests that guard it are run against every mutant of the group, and the score is the share of
 * mutants some test kills. A report, not a CI gate.
 *   bun run mutation                 every group; a table of scores
 *   bun run mutation keys matcher    only these groups
 *   bun run mutation --write         also rewrite the table in bench/README.md (its mutation block)
 *   bun run mutation --reuse         take a group's score from its last report instead of running it
 * Stryker needs Node.js >= 22, so it runs under Bun (`bun --bun`). Reports: .stryker-tmp/reports/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stamp, writeBlock } from "../bench/readme-block.ts";

const ROOT = join(import.meta.dir, "..");
const WORK = join(ROOT, ".stryker-tmp");

interface Group {
  name: string;
  mutate: string[];
  /** The unit and pty tests that guard these modules. */
  tests: string[];
  /** Only the tests whose names match (bun test -t), where a file's other tests guard other code. */
  filter?: string;
}

const GROUPS: Group[] = [
  {
    name: "keys",
    mutate: ["src/keys/**/*.ts"],
    tests: ["test/unit/keys.test.ts", "test/unit/keys-parse.test.ts", "test/unit/keys-kitty.test.ts"],
  },
  { name: "matcher", mutate: ["src/session/matcher.ts"], tests: ["test/unit/matcher.test.ts"] },
  {
    name: "reply cap",
    mutate: ["src/tools/reply-cap.ts"],
    tests: ["test/unit/reply-cap.test.ts", "test/unit/reply-cap-shape.test.ts"],
  },
  { name: "flow control", mutate: ["src/pty/flow.ts"], tests: ["test/unit/flow.test.ts"] },
  // The quiet-window settle: its bounds, the wait for a first answer and the quiet period (fake timers).
  {
    name: "settle",
    mutate: ["src/session/quiet-window.ts"],
    tests: ["test/unit/quiet-window.test.ts", "test/unit/settle-bounds.test.ts"],
  },
  // The ready oracle's settle loop (fake session, group and rest model on fake timers).
  { name: "oracle settle", mutate: ["src/session/ready/settle.ts"], tests: ["test/unit/ready-settle.test.ts"] },
];

interface Score {
  group: string;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  score: number;
}

function run(group: Group): Score {
  const slug = group.name.replace(/\W+/g, "-");
  const report = join(WORK, "reports", `${slug}.json`);
  if (process.argv.includes("--reuse") && existsSync(report))
    return tally(group.name, JSON.parse(readFileSync(report, "utf8")));
  const config = {
    testRunner: "command",
    commandRunner: {
      command: `bun test --timeout 30000 ${group.tests.join(" ")}${group.filter ? ` -t "${group.filter}"` : ""}`,
    },
    mutate: group.mutate,
    coverageAnalysis: "off",
    reporters: ["json", "clear-text"],
    clearTextReporter: { logTests: false, reportMutants: false },
    jsonReporter: { fileName: report },
    concurrency: 2,
    tempDirName: join(WORK, slug),
    cleanTempDir: true,
    ignorePatterns: [".git", ".stryker-tmp", "bench/results.json", "types", "dist"],
  };
  mkdirSync(join(WORK, "reports"), { recursive: true });
  const file = join(WORK, `${slug}.config.json`);
  writeFileSync(file, JSON.stringify(config, null, 2));
  const stryker = join(ROOT, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js");
  const proc = Bun.spawnSync([process.execPath, "--bun", stryker, "run", file], {
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  });
  if (proc.exitCode !== 0) throw new Error(`stryker failed for ${group.name} (exit ${proc.exitCode})`);
  return tally(group.name, JSON.parse(readFileSync(report, "utf8")));
}

function tally(group: string, report: { files: Record<string, { mutants: { status: string }[] }> }): Score {
  const count = (status: string) =>
    Object.values(report.files).reduce((n, f) => n + f.mutants.filter((m) => m.status === status).length, 0);
  const killed = count("Killed");
  const timeout = count("Timeout");
  const survived = count("Survived");
  const noCoverage = count("NoCoverage");
  const detected = killed + timeout;
  return { group, killed, timeout, survived, noCoverage, score: (100 * detected) / (detected + survived + noCoverage) };
}

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const groups = wanted.length ? GROUPS.filter((g) => wanted.includes(g.name.split(" ")[0]!)) : GROUPS;
const scores = groups.map(run);
const table = [
  "| Modules | Guarded by | Killed | Timed out | Survived | Score |",
  "|---|---|---:|---:|---:|---:|",
  ...scores.map((s, i) => {
    const g = groups[i]!;
    return `| ${g.name}: ${g.mutate.map((m) => `\`${m}\``).join(", ")} | ${g.tests.map((t) => `\`${t.replace("test/", "")}\``).join(", ")} | ${s.killed} | ${s.timeout} | ${s.survived + s.noCoverage} | **${s.score.toFixed(1)} %** |`;
  }),
].join("\n");
console.log(table);
if (process.argv.includes("--write"))
  writeBlock(join(ROOT, "bench", "README.md"), "mutation", `Measured ${stamp()}:\n\n${table}`);
