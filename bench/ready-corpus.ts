#!/usr/bin/env bun
/**
 * The ready oracle on its corpus (test/fixtures/corpus/cases.ts and the fresh parts fresh*.ts):
 * `bun run bench:ready-corpus [--quick] [--idle|--loaded] [--only=WORD] [--part=PART]`, PART one of
 * tuned, heldout, fresh, freshb ... fresho.
 * Every case runs at idle and again beside a CPU hog on each core (two busy loops). Per input: is the answer on the after-screen (premature when not), did
 * the reply claim the screen was done (settledBy idle or periodic, or quiet: true), and how long the
 * settle took beyond the moment the answer was written (from the raw output) and beyond the program's
 * last write before the after-screen (a shell's prompt: the command's real end). Reported per class,
 * with the held-out cases apart, and the machine's load average with every table. Each fresh part
 * (FRESH_PARTS: programs written by someone else after a round of changes) is a table of its own, by
 * class only, never per case. `--part` runs one part only (all by default).
 */
import { loadavg } from "node:os";
import type { ScreenBlock } from "../src/session/observe.ts";
import type { SessionRegistry } from "../src/session/registry.ts";
import type { Session } from "../src/session/session.ts";
import { type Built, buildCorpus, corpus, type CorpusCase } from "../test/fixtures/corpus/cases.ts";
import { freshCorpus } from "../test/fixtures/corpus/fresh.ts";
import { freshBCorpus } from "../test/fixtures/corpus/fresh-b.ts";
import { freshCCorpus } from "../test/fixtures/corpus/fresh-c.ts";
import { freshDCorpus } from "../test/fixtures/corpus/fresh-d.ts";
import { freshECorpus } from "../test/fixtures/corpus/fresh-e.ts";
import { freshFCorpus } from "../test/fixtures/corpus/fresh-f.ts";
import { freshGCorpus } from "../test/fixtures/corpus/fresh-g.ts";
import { freshHCorpus } from "../test/fixtures/corpus/fresh-h.ts";
import { freshICorpus } from "../test/fixtures/corpus/fresh-i.ts";
import { freshJCorpus } from "../test/fixtures/corpus/fresh-j.ts";
import { freshKCorpus } from "../test/fixtures/corpus/fresh-k.ts";
import { freshLCorpus } from "../test/fixtures/corpus/fresh-l.ts";
import { freshMCorpus } from "../test/fixtures/corpus/fresh-m.ts";
import { freshNCorpus } from "../test/fixtures/corpus/fresh-n.ts";
import { freshOCorpus } from "../test/fixtures/corpus/fresh-o.ts";
import { freshPCorpus } from "../test/fixtures/corpus/fresh-p.ts";
import type { FreshFlag } from "../test/fixtures/corpus/fresh-kit.ts";
import type { Look } from "../src/session/ready/reading.ts";
import { settleTrace } from "../src/session/ready/settle.ts";
import { benchRegistry, countsText, percentile, press, startCpuHogs, startProgram, waitReady } from "./helpers.ts";

const argv = process.argv.slice(2);
const QUICK = argv.includes("--quick");
const only = argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const passes = argv.includes("--idle") ? ["idle"] : argv.includes("--loaded") ? ["loaded"] : ["idle", "loaded"];
const INPUTS = QUICK ? 2 : 4;
/**
 * The fresh parts, in the order they were written. Each one's first run, on the code of its day, was
 * its held-out result; after it, it was looked at (cases that failed were mended) and counts as
 * tuned. Fresh E, H, L and P are still unseen (`unseen`).
 */
const FRESH_PARTS: {
  part: string;
  flag: FreshFlag;
  label: string;
  title: string;
  corpus: (built: Built) => CorpusCase[];
  /** Never looked at: CORPUS_DEBUG does not name its cases. */
  unseen?: true;
}[] = [
  {
    part: "fresh",
    flag: "fresh",
    label: "fresh A",
    title: "stop 33; held out for one run, looked at since",
    corpus: freshCorpus,
  },
  {
    part: "freshb",
    flag: "freshB",
    label: "fresh B",
    title: "stop 33; held out for one run, looked at since",
    corpus: freshBCorpus,
  },
  {
    part: "freshc",
    flag: "freshC",
    label: "fresh C",
    title: "stop 33; held out for one run, looked at since",
    corpus: freshCCorpus,
  },
  {
    part: "freshd",
    flag: "freshD",
    label: "fresh D",
    title: "stop 33; held out for one run, looked at since",
    corpus: freshDCorpus,
  },
  {
    part: "freshe",
    flag: "freshE",
    label: "fresh E",
    title: "stop 33, never looked at",
    corpus: freshECorpus,
    unseen: true,
  },
  {
    part: "freshf",
    flag: "freshF",
    label: "fresh F",
    title: "stop 34; held out for one run, looked at since",
    corpus: freshFCorpus,
  },
  {
    part: "freshg",
    flag: "freshG",
    label: "fresh G",
    title: "stop 34; held out for one run, looked at since",
    corpus: freshGCorpus,
  },
  {
    part: "freshh",
    flag: "freshH",
    label: "fresh H",
    title: "stop 34, never looked at",
    corpus: freshHCorpus,
    unseen: true,
  },
  {
    part: "freshi",
    flag: "freshI",
    label: "fresh I",
    title: "stop 35; held out for one run, looked at since",
    corpus: freshICorpus,
  },
  {
    part: "freshj",
    flag: "freshJ",
    label: "fresh J",
    title: "stop 35; held out for one run, looked at since",
    corpus: freshJCorpus,
  },
  {
    part: "freshk",
    flag: "freshK",
    label: "fresh K",
    title: "stop 36; held out for one run, looked at since",
    corpus: freshKCorpus,
  },
  {
    part: "freshl",
    flag: "freshL",
    label: "fresh L",
    title: "stop 36, never looked at",
    corpus: freshLCorpus,
    unseen: true,
  },
  {
    part: "freshm",
    flag: "freshM",
    label: "fresh M",
    title: "stop 36; its process pools looked at in stop 37",
    corpus: freshMCorpus,
  },
  {
    part: "freshn",
    flag: "freshN",
    label: "fresh N",
    title: "stop 37; held out for one run, looked at since",
    corpus: freshNCorpus,
  },
  {
    part: "fresho",
    flag: "freshO",
    label: "fresh O",
    title: "stop 38; held out for one run, looked at since",
    corpus: freshOCorpus,
  },
  {
    part: "freshp",
    flag: "freshP",
    label: "fresh P",
    title: "stop 39, never looked at",
    corpus: freshPCorpus,
    unseen: true,
  },
];
const PARTS = ["tuned", "heldout", ...FRESH_PARTS.map((f) => f.part)];
const partArg = argv.find((a) => a.startsWith("--part="))?.slice("--part=".length);
if (partArg !== undefined && !PARTS.includes(partArg)) {
  console.error(`--part must be one of ${PARTS.join(", ")}`);
  process.exit(2);
}
const parts = partArg === undefined ? PARTS : [partArg];
/** The fresh part a case is of, if any (a case carries one part's flag). */
const freshPartOf = (c: CorpusCase) => FRESH_PARTS.find((f) => c[f.flag]);
const partOf = (c: CorpusCase): string => freshPartOf(c)?.part ?? (c.heldOut ? "heldout" : "tuned");
const TITLES: Record<string, string> = {
  tuned: "tuned part",
  heldout: "held-out part",
  ...Object.fromEntries(FRESH_PARTS.map((f) => [f.part, `${f.label} part (${f.title})`])),
};

interface Row {
  premature: number;
  claimedPremature: number;
  inputs: number;
  /** Settle time beyond the answer's write, for inputs whose answer was on screen. */
  over: number[];
  /** Settle time beyond the last output before the after-screen, for the same inputs. */
  overLast: number[];
  waited: number[];
  settledBy: Record<string, number>;
}
const row = (): Row => ({
  premature: 0,
  claimedPremature: 0,
  inputs: 0,
  over: [],
  overLast: [],
  waited: [],
  settledBy: {},
});

// Under CORPUS_DEBUG, the looks the last settle at rest ended on: printed with a claimed premature input.
const lastRest: { looks?: { seen: Look; base: Look | undefined } } = {};
if (process.env.CORPUS_DEBUG) settleTrace.atRest = (seen, base) => (lastRest.looks = { seen, base });
// A function, so that the narrowing of `lastRest.looks` before a press does not hold after it.
const describeRest = () => {
  const looks = lastRest.looks;
  return looks === undefined
    ? ""
    : `\n    last look: ${describeLook(looks.seen)}\n    base: ${describeLook(looks.base)}`;
};
const describeLook = (look: Look | undefined) =>
  look === undefined
    ? "none"
    : look.threads
        .map(({ pid, tid, name, activity: a }) => {
          const wait =
            a.kind === "wait" ? `${a.call}/${a.waitKind}${a.timed ? `(${a.timeoutMs ?? "?"})` : ""}` : a.kind;
          return `${pid}.${tid} ${name ?? ""} ${wait}`;
        })
        .join("; ");
const claims = (b: ScreenBlock) => b.settledBy === "idle" || b.settledBy === "periodic" || b.quiet;

async function runCase(registry: SessionRegistry, c: CorpusCase, into: Row[]): Promise<void> {
  const session = await startProgram(registry, c);
  try {
    await waitReady(session, c.ready, { timeoutMs: 15_000, pollIntervalMs: 5 });
    for (let n = 1; n <= INPUTS; n++) await oneInput(session, c, n, into);
  } catch (error) {
    // A fresh part's case is not named, even when it fails.
    const fresh = freshPartOf(c);
    const named = fresh === undefined ? c.name : `a ${fresh.label} case (${c.class})`;
    console.log(`  ${named}: ${String(error).slice(0, 200)}`);
  } finally {
    await registry.stop(session.id, "SIGKILL", 0);
  }
}

async function oneInput(session: Session, c: CorpusCase, n: number, into: Row[]): Promise<void> {
  let text = "";
  let markedAt: number | undefined;
  const start = performance.now();
  const writes: number[] = [];
  const stop = session.onOutput((chunk) => {
    if (writes.length < 10_000) writes.push(performance.now());
    if (markedAt !== undefined) return;
    text = (text + Buffer.from(chunk).toString("latin1")).slice(-4096);
    if (text.includes(c.mark(n))) markedAt = performance.now();
  });
  lastRest.looks = undefined;
  const block = await press(session, c.input(n));
  stop();
  const screen = block.after!.text.replace(/[ \t]+$/gm, "");
  const missing = !screen.includes(c.answer(n));
  const lastWrite = writes.filter((t) => t <= start + block.totalMs).at(-1);
  for (const r of into) {
    r.inputs++;
    r.settledBy[block.settledBy] = (r.settledBy[block.settledBy] ?? 0) + 1;
    r.waited.push(block.waitedMs);
    if (missing) r.premature++;
    if (missing && claims(block)) r.claimedPremature++;
    if (!missing && markedAt !== undefined) r.over.push(Math.max(0, block.totalMs - (markedAt - start)));
    if (!missing && lastWrite !== undefined) r.overLast.push(Math.max(0, block.totalMs - (lastWrite - start)));
  }
  // CORPUS_DEBUG names the tuned part's premature inputs; CORPUS_DEBUG=any every part's but an unseen
  // one's (never on a held-out run).
  const unseen = freshPartOf(c)?.unseen === true;
  if (missing && process.env.CORPUS_DEBUG && (partOf(c) === "tuned" || (process.env.CORPUS_DEBUG === "any" && !unseen)))
    console.log(
      `  premature: ${c.name} #${n} ${block.settledBy} after ${block.waitedMs} ms`,
      JSON.stringify(block.busy),
      claims(block) ? describeRest() : "",
    );
  // The next input starts from a settled program: a premature screen's answer lands first.
  if (missing) await waitReady(session, c.mark(n), { timeoutMs: 5000, pollIntervalMs: 5 }).catch(() => {});
}

function table(title: string, rows: Map<string, Row>): void {
  console.log(`\n${title}`);
  console.log(
    "| class | inputs | premature | premature and claimed | settle p50 / p95 ms | beyond the answer p50 / p95 ms | beyond the last write p50 / p95 ms | settledBy |",
  );
  console.log("|---|---|---|---|---|---|---|---|");
  for (const [name, r] of rows) {
    const waited = `${percentile(r.waited, 0.5)} / ${percentile(r.waited, 0.95)}`;
    const p50p95 = (xs: number[]) => `${Math.round(percentile(xs, 0.5))} / ${Math.round(percentile(xs, 0.95))}`;
    console.log(
      `| ${name} | ${r.inputs} | ${r.premature} | ${r.claimedPremature} | ${waited} | ${p50p95(r.over)} | ` +
        `${p50p95(r.overLast)} | ${countsText(r.settledBy)} |`,
    );
  }
}

const built = buildCorpus();
// A fresh part's case also needs its `needs` tool (a shell case's command is the shell).
const runnable = (c: CorpusCase) =>
  Bun.which(c.command) !== null &&
  (freshPartOf(c) === undefined || c.needs === undefined || Bun.which(c.needs) !== null);
const inParts = [
  ...corpus(built),
  ...FRESH_PARTS.filter((f) => parts.includes(f.part)).flatMap((f) => f.corpus(built)),
].filter((c) => parts.includes(partOf(c)));
const cases = inParts.filter((c) => (only === undefined || c.name.includes(only)) && runnable(c));
const skipped = inParts.length - cases.length;
const counts = [
  `${cases.filter((c) => partOf(c) === "heldout").length} held out`,
  ...FRESH_PARTS.map((f) => [f.label, cases.filter((c) => c[f.flag]).length] as const)
    .filter(([, n]) => n > 0)
    .map(([label, n]) => `${n} ${label}`),
];
console.log(
  `corpus: ${cases.length} cases (${counts.join(", ")}), ${INPUTS} inputs each` +
    `${built.go ? "" : "; go absent"}${built.ncurses ? "" : "; gcc/ncurses absent"}${skipped ? `; ${skipped} skipped` : ""}`,
);
const registry = benchRegistry("auto");
for (const pass of passes) {
  // two busy loops: one per core of the 2-core machine the figures in bench/README.md come from
  const stopHogs = pass === "loaded" ? startCpuHogs(2) : undefined;
  const started = performance.now();
  const load: number[] = [];
  const groups: Record<string, Map<string, Row>> = Object.fromEntries(PARTS.map((part) => [part, new Map()]));
  const perCase = new Map<string, Row>();
  for (const c of cases) {
    const group = groups[partOf(c)]!;
    const klass = group.get(c.class) ?? row();
    group.set(c.class, klass);
    const all = group.get("all") ?? row();
    const mine = row();
    // Held-out and fresh cases are reported only as their part's classes, never one by one.
    if (partOf(c) === "tuned") perCase.set(c.name, mine);
    await runCase(registry, c, [klass, all, mine]);
    load.push(loadavg()[0]!);
    group.delete("all");
    group.set("all", all);
  }
  stopHogs?.();
  const seconds = Math.round((performance.now() - started) / 1000);
  const loadText = `load average ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)} on ${navigator.hardwareConcurrency} cores`;
  // The first part shown carries the pass's load and time.
  parts.forEach((part, i) =>
    table(
      i === 0
        ? `${pass}${stopHogs ? " (a CPU hog on each core)" : ""}, ${TITLES[part]}, ${loadText}, ${seconds} s`
        : `${pass}, ${TITLES[part]}`,
      groups[part]!,
    ),
  );
  if (process.env.CORPUS_CASES) table(`${pass}, per case (tuned part only)`, perCase);
}
await registry.shutdown(200);
built.cleanup();
process.exit(0);
