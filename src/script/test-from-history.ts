/**
 * A session's input history -> a test file (the `tui-tester test` format): the session's start
 * arguments, every input as a step, a wait after each input (the agent's own, or stable text that
 * first appeared after it), the agent's checks, and expect_snapshot steps with masks.
 */
import { basename, dirname, join, relative } from "node:path";
import type { HistoryEntry, InputEntry, LaunchArgs, WaitSpec } from "../session/history.ts";
import { VOLATILE_PATTERNS, type Span } from "../session/stable-text.ts";
import type { StepMask as Mask } from "./expect-snapshot.ts";

export type SnapshotMode = "end" | "waits" | "none";

/** Where a test file's goldens live: __snapshots__/<file name>/ beside it (the CLI and save_test agree). */
export function testGoldenDir(testFile: string): string {
  return join(dirname(testFile), "__snapshots__", basename(testFile));
}

/** A golden save_test writes from a kept screen (snapshots: "waits"). */
export interface PlannedGolden {
  name: string;
  lines: string[];
  mask: Mask[];
  /** ansi: the rows are SGR-coded already (a highlight's cells), written as they are. */
  format?: "ansi";
}

export interface TestPlan {
  test: Record<string, unknown>;
  goldens: PlannedGolden[];
  /** The end snapshot step, when there is one (its golden is written from the live screen). */
  endSnapshot?: { name: string; mask: Mask[] };
  insertedWaits: number;
  idleWaits: number;
  /** Inputs that showed no new text but moved a highlight: an ansi golden of its cells is their wait. */
  highlightWaits: number;
  notes: string[];
}

/** How long a saved test waits for quiet after an input that showed no new text. */
const IDLE_MS = 300;
/** The runner's own defaults for a test's session (cli/run-test.ts): left out of the file when equal. */
export const TEST_ENV_DEFAULTS: Record<string, string> = { TZ: "UTC", LANG: "C.UTF-8" };

export function planTest(options: {
  entries: HistoryEntry[];
  launch: LaunchArgs;
  readyText?: string;
  testDir: string;
  name: string;
  slug: string;
  snapshots: SnapshotMode;
  /** What the original session saw for variables the runner fixes (TZ, LANG) when the agent left them unset. */
  inheritedEnv: Record<string, string | undefined>;
  endMask: Mask[];
  /** Texts sent as secrets: a kept screen that shows one gets it masked (the golden never holds it). */
  secrets?: string[];
  /** How the program ended by itself (not stopped by a signal the server sent): checked before the end snapshot. */
  exit?: { code: number | null; signal: string | null };
}): TestPlan {
  const { entries, snapshots, slug } = options;
  const steps: Record<string, unknown>[] = [];
  const goldens: PlannedGolden[] = [];
  const notes: string[] = [];
  let insertedWaits = 0;
  let idleWaits = 0;
  let highlightWaits = 0;
  const firstInput = entries.findIndex((e) => e.kind === "input");
  if (firstInput < 0) notes.push("The session had no input: the test only starts it and checks the screen.");
  if (!options.launch.isolate)
    notes.push(
      "The session was not isolated; the test is (a fresh HOME, no dotfiles). If the app needs your HOME, " +
        "set isolate to false in its session.",
    );
  // Before the first input the app must be up: the agent's own wait, or text from the first screen it saw.
  const waitedFirst = entries.slice(0, Math.max(0, firstInput)).some((e) => e.kind === "wait");
  if (firstInput >= 0 && !waitedFirst && options.readyText) {
    steps.push({ type: "wait_for_text", pattern: options.readyText });
    insertedWaits++;
  }
  // snapshots: "waits": the screen the agent saw before its next input, checked right before that input
  let queued: Record<string, unknown> | null = null;
  // the previous input's call returned before the app was at rest, and no wait of the agent's followed it
  let unsettled = false;
  for (const [index, entry] of entries.entries()) {
    if (entry.kind === "wait") {
      steps.push({ type: "wait_for_text", ...entry.args });
      unsettled = false;
    } else if (entry.kind === "check") steps.push({ type: "assert_text", ...entry.args });
    else {
      if (queued) steps.push(queued);
      queued = null;
      const next = entries.findIndex((e, i) => i > index && e.kind === "input");
      const agentWaits = entries.slice(index + 1, next < 0 ? undefined : next).some((e) => e.kind === "wait");
      const step = inputStep(entry);
      steps.push(step);
      if (!entry.waitFor && !agentWaits) {
        if (entry.waitText && !unsettled) {
          step.waitFor = { pattern: entry.waitText, after: "input" };
          insertedWaits++;
        } else if (entry.highlight && !unsettled) {
          // nothing new to read, but a bar moved: wait until those cells show it, colours and all
          const { row, col, cols, text, ansi } = entry.highlight;
          const name = `${slug}-${String(goldens.length + 1).padStart(2, "0")}-highlight`;
          goldens.push({ name, lines: [ansi], mask: [], format: "ansi" });
          steps.push({
            type: "expect_snapshot",
            name,
            format: "ansi",
            region: { row, col, rows: 1, cols },
            label: `the highlight moved to ${JSON.stringify(text.slice(0, 60))}`,
          });
          highlightWaits++;
        } else if (next >= 0) {
          const why = entry.waitText ? "sent before the app had finished the input before it" : "no new text appeared";
          steps.push({ type: "wait_for_idle", idleMs: IDLE_MS, label: `${why} after the input above` });
          idleWaits++;
        }
      }
      unsettled = entry.settled === false && !entry.waitFor;
      // no two identical goldens in a row: a screen the input did not change is already checked
      const previous = goldens.findLast((g) => g.format === undefined);
      const repeated = previous !== undefined && sameLines(previous.lines, entry.screen?.lines ?? []);
      if (snapshots === "waits" && entry.screen && next >= 0 && !repeated) {
        const name = `${slug}-${String(goldens.length + 1).padStart(2, "0")}`;
        const mask = [
          ...suggestMasks(entry.screen.lines, entry.screen.volatile),
          ...secretMasks(entry.screen.lines, options.secrets ?? []),
        ];
        goldens.push({ name, lines: entry.screen.lines, mask });
        queued = { type: "expect_snapshot", name, ...(mask.length ? { mask } : {}) };
      }
    }
  }
  if (options.exit)
    steps.push(
      options.exit.signal !== null
        ? { type: "expect_exit", signal: options.exit.signal }
        : { type: "expect_exit", code: options.exit.code ?? 0 },
    );
  let endSnapshot: TestPlan["endSnapshot"];
  if (snapshots !== "none") {
    endSnapshot = { name: `${slug}-end`, mask: options.endMask };
    steps.push({
      type: "expect_snapshot",
      name: endSnapshot.name,
      ...(options.endMask.length ? { mask: options.endMask } : {}),
    });
  }
  if (steps.length === 0) steps.push({ type: "wait_for_idle", idleMs: IDLE_MS });
  const secretVars = [
    ...new Set(
      steps.flatMap((s) =>
        s.secret === true ? [...String(s.text).matchAll(/\$\{env:(TUI_SECRET_\w+)\}/g)].map((m) => m[1]!) : [],
      ),
    ),
  ];
  if (secretVars.length > 0)
    notes.push(
      `Secrets are read from ${secretVars.join(", ")}: set them where the test runs (it fails until they are).`,
    );
  return {
    test: { name: options.name, session: sessionArgs(options.launch, options.testDir, options.inheritedEnv), steps },
    goldens,
    endSnapshot,
    insertedWaits,
    idleWaits,
    highlightWaits,
    notes,
  };
}

function sameLines(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((line, i) => line.trimEnd() === b[i]!.trimEnd());
}

function inputStep(entry: InputEntry): Record<string, unknown> {
  const args = { ...entry.args };
  // one key reads better as "keys": "enter" than as a list of one
  if (Array.isArray(args.keys) && args.keys.length === 1) args.keys = args.keys[0];
  const step: Record<string, unknown> = { type: entry.type, ...args };
  if (entry.source === "human") step.label = "typed by a human in the web viewer";
  if (entry.waitFor) {
    const { newOnly, ...spec } = entry.waitFor;
    step.waitFor = { ...spec, ...(newOnly ? { after: "input" } : {}) } satisfies WaitSpec;
  }
  return step;
}

function sessionArgs(
  launch: LaunchArgs,
  testDir: string,
  inherited: Record<string, string | undefined>,
): Record<string, unknown> {
  const session: Record<string, unknown> = { command: launch.command };
  if (launch.args.length > 0) session.args = launch.args;
  const cwd = relative(testDir, launch.cwd);
  if (cwd !== "") session.cwd = cwd;
  const env: Record<string, string | null> = { ...launch.env };
  // The runner fixes TZ and LANG unless the file sets them; keep what the session really had.
  for (const [key, fixed] of Object.entries(TEST_ENV_DEFAULTS)) {
    if (env[key] !== undefined) continue;
    const had = inherited[key] ?? (key === "LANG" ? "C" : undefined);
    if (had !== undefined && had !== fixed) env[key] = had;
  }
  if (Object.keys(env).length > 0) session.env = env;
  // tests run isolated by default; the variables the agent passed through are named again
  if (launch.passEnv?.length) session.passEnv = launch.passEnv;
  session.cols = launch.cols;
  session.rows = launch.rows;
  if (launch.term !== "xterm-256color") session.term = launch.term;
  if (launch.clock !== undefined) {
    session.clock = launch.clock;
  }
  return session;
}

/** A region mask over each place a secret shows on the screen (an app that echoes it), so no golden holds it. */
export function secretMasks(lines: string[], secrets: string[]): Mask[] {
  const masks: Mask[] = [];
  for (const secret of secrets) {
    for (const [row, line] of lines.entries()) {
      for (let col = line.indexOf(secret); col >= 0; col = line.indexOf(secret, col + secret.length))
        masks.push({ region: { row, col, rows: 1, cols: secret.length } });
    }
  }
  return masks.slice(0, 100);
}

/**
 * Masks for a screen: a region for each stretch seen changing between two reads (widened over the
 * blanks beside it, as a number may grow), and each volatile shape (clock, date, duration) found on it.
 */
export function suggestMasks(lines: string[], changed: Span[]): Mask[] {
  const masks: Mask[] = [];
  for (const span of changed) {
    const line = lines[span.row] ?? "";
    let start = span.col;
    let end = span.col + span.length;
    while (start > 0 && line[start - 1] === " " && line[start - 2] === " ") start--;
    while (end < line.length && line[end] === " " && line[end + 1] === " ") end++;
    masks.push({ region: { row: span.row, col: start, rows: 1, cols: Math.max(1, end - start) } });
  }
  // each shape found, unless all it finds is inside what an earlier (wider) shape already masks
  const covered = lines.map(() => [] as [number, number][]);
  for (const pattern of VOLATILE_PATTERNS) {
    const re = new RegExp(pattern.regex, "g");
    let adds = false;
    for (const [row, line] of lines.entries()) {
      for (const m of line.matchAll(re)) {
        const [start, end] = [m.index, m.index + m[0].length];
        if (!covered[row]!.some(([a, b]) => a <= start && end <= b)) adds = true;
        covered[row]!.push([start, end]);
      }
    }
    if (adds) masks.push({ regex: pattern.regex });
  }
  return masks.slice(0, 100);
}
