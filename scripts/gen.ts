#!/usr/bin/env bun
/**
 * Regenerates every committed file that is derived from the code alone, in one command.
 *   bun run gen           rewrite what is stale
 *   bun run gen --check   exit 1 naming each stale file, rewrite nothing (test/build/gen.test.ts runs this)
 *
 * Generated, and so here: README.md's tool index and settings table and docs/tool-reference.md
 * (scripts/tool-reference.ts), schema/tui-test.schema.json (scripts/test-schema.ts), the tools/list token
 * table in bench/README.md (a count over the catalog, so it depends on nothing else; bench/tool-tokens.ts)
 * and the tools/list snapshot (test/e2e/__snapshots__/catalog.test.ts.snap).
 * Not here: types/ (built by `bun run types` when packing, never committed); bench/README.md's other figures
 * (timings and task token counts are measurements of a run: `bun run bench`, `bun run bench:tokens --write`);
 * the examples' golden screens (what a program drew, written by running the examples).
 */
import { join, relative } from "node:path";
import { readBlock } from "../bench/readme-block.ts";
import { toolTokensTable } from "../bench/tool-tokens.ts";
import { tools } from "../src/catalog.ts";
import { listTools } from "../src/server.ts";
import { renderReadme, renderReference } from "./tool-reference.ts";

const ROOT = join(import.meta.dir, "..");

interface Generator {
  /** The files it writes that are not what the code gives now (paths from the repository root). */
  stale(): Promise<string[]>;
  write(): Promise<void>;
}

/** Runs a command in the repository; true when it exits 0. Its output is shown only when it fails. */
async function succeeds(command: string[]): Promise<boolean> {
  const child = Bun.spawn(command, { cwd: ROOT, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (code !== 0 && !process.argv.includes("--check"))
    process.stderr.write(`${command.join(" ")}:\n${stdout}${stderr}`);
  return code === 0;
}

/** A script with a --check mode of its own: stale means its check fails. */
function script(files: string[], path: string): Generator {
  return {
    stale: async () => ((await succeeds(["bun", path, "--check"])) ? [] : files),
    write: async () => {
      if (!(await succeeds(["bun", path]))) throw new Error(`${path} failed`);
    },
  };
}

const BENCH_README = "bench/README.md";
const SNAPSHOT = "test/e2e/__snapshots__/catalog.test.ts.snap";
const SNAPSHOT_TEST = ["test/e2e/catalog.test.ts", "-t", "the committed snapshot"];

const GENERATORS: Generator[] = [
  ...[renderReadme, renderReference].map(
    (render): Generator => ({
      stale: async () => {
        const doc = await render();
        return doc.current === doc.wanted ? [] : [relative(ROOT, doc.path)];
      },
      write: async () => {
        const doc = await render();
        await Bun.write(doc.path, doc.wanted);
      },
    }),
  ),
  script(["schema/tui-test.schema.json"], "scripts/test-schema.ts"),
  {
    stale: async () => {
      const block = readBlock(join(ROOT, BENCH_README), "tool-tokens") ?? "";
      const table = block.slice(block.indexOf("| tool |"));
      return table === toolTokensTable(listTools(tools, "text")) ? [] : [BENCH_README];
    },
    write: async () => {
      if (!(await succeeds(["bun", "bench/tool-tokens.ts", "--write"]))) throw new Error("bench/tool-tokens.ts failed");
    },
  },
  {
    // CI set: a missing snapshot fails instead of being written
    stale: async () => ((await succeeds(["env", "CI=1", "bun", "test", ...SNAPSHOT_TEST])) ? [] : [SNAPSHOT]),
    write: async () => {
      if (!(await succeeds(["bun", "test", "--update-snapshots", ...SNAPSHOT_TEST])))
        throw new Error(`${SNAPSHOT} could not be written`);
    },
  },
];

if (import.meta.main) {
  const check = process.argv.includes("--check");
  const stale: string[] = [];
  for (const generator of GENERATORS) {
    const files = await generator.stale();
    if (files.length === 0) continue;
    stale.push(...files);
    if (!check) await generator.write();
  }
  if (check && stale.length > 0) {
    process.stderr.write(`Stale generated files: ${stale.join(", ")}. Run \`bun run gen\` and commit them.\n`);
    process.exit(1);
  }
  process.stderr.write(stale.length === 0 ? "All generated files are current.\n" : `Rewrote ${stale.join(", ")}.\n`);
}
