/**
 * Reading and checking test files before anything runs: JSON or YAML, one test or a list, the
 * session checked against start_session's schema and the steps planned by run_script's own
 * planner, so a bad file is reported with its file, test, step index and fix, and nothing starts.
 */
import { basename, dirname, relative, resolve } from "node:path";
import * as v from "valibot";
import { toTuiError } from "../errors.ts";
import { TEST_ASSERT_TIMEOUT_MS, type ScriptDefaults } from "../script/steps.ts";
import { testGoldenDir } from "../script/test-from-history.ts";
import { runScriptTool, scriptSteps } from "../catalog.ts";
import { startSessionTool } from "../tools/session-tools.ts";
import { testSchema } from "./test-schema.ts";

export type SessionArgs = v.InferOutput<typeof startSessionTool.input>;
export type SnapshotUpdate = "missing" | "all" | "none";

export interface TestCase {
  /** Absolute path of the file. */
  file: string;
  /** Path relative to the working directory, as reports show it. */
  relFile: string;
  name: string;
  /** "relFile › name": what --filter matches and reports print. */
  title: string;
  session: SessionArgs;
  steps: Record<string, unknown>[];
  defaults: ScriptDefaults;
  timeoutMs?: number;
  retries?: number;
  skip: boolean;
}

const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** Where a test file's goldens live: __snapshots__/<file name>/ beside it. */
export const snapshotDir = testGoldenDir;

/** The step types' tools, for what a step is (its `history`, its `golden`). */
const stepTools = new Map(scriptSteps.map((tool) => [tool.name, tool]));

/** Does the step compare with a golden file in the test file's golden directory (the runner sets dir and update)? */
const hasGoldens = (step: Record<string, unknown>) => stepTools.get(String(step.type))?.golden !== undefined;

/**
 * The steps as run: golden steps get the file's golden directory and the run's update mode; a check (assert_text)
 * waits (up to the step's timeoutMs, else the file's defaults.timeoutMs, else TEST_ASSERT_TIMEOUT_MS), as the
 * library's matchers do.
 */
export function stepsAsRun(
  test: Pick<TestCase, "file" | "steps" | "defaults">,
  update: SnapshotUpdate,
): Record<string, unknown>[] {
  return test.steps.map((step) => {
    if (hasGoldens(step)) return { ...step, dir: snapshotDir(test.file), update };
    if (stepTools.get(String(step.type))?.history === "check" && step.timeoutMs === undefined)
      return { ...step, timeoutMs: test.defaults.timeoutMs ?? TEST_ASSERT_TIMEOUT_MS };
    return step;
  });
}

/** The file name of a step's golden in its test file's golden directory, if it has one. */
export function goldenName(step: Record<string, unknown>): string | undefined {
  return stepTools.get(String(step.type))?.golden?.(step);
}

/** valibot's own summary ("× message / → at path"), indented under the file's line, at most 10 issues. */
function issueList(issues: readonly v.BaseIssue<unknown>[]): string {
  const shown = v
    .summarize(issues.slice(0, 10) as [v.BaseIssue<unknown>, ...v.BaseIssue<unknown>[]])
    .split("\n")
    .map((line) => `    ${line}`);
  return [...shown, ...(issues.length > 10 ? [`    ... and ${issues.length - 10} more`] : [])].join("\n");
}

async function parseFile(file: string): Promise<unknown> {
  const handle = Bun.file(file);
  if (handle.size > MAX_FILE_BYTES)
    throw new Error(
      `the file is ${handle.size} bytes; test files are limited to ${MAX_FILE_BYTES}. Split it into several files.`,
    );
  const text = await handle.text();
  const yaml = /\.ya?ml$/i.test(file);
  try {
    return yaml ? Bun.YAML.parse(text) : JSON.parse(text);
  } catch (error) {
    throw new Error(
      `not valid ${yaml ? "YAML" : "JSON"} ` +
        `(${error instanceof Error ? error.message : String(error)}). Fix the syntax; an ` +
        `editor with a ${yaml ? "YAML" : "JSON"} linter shows where.`,
    );
  }
}

function checkTest(
  raw: unknown,
  where: string,
  file: string,
  relFile: string,
): { test?: TestCase; problems: string[] } {
  const parsed = v.safeParse(testSchema, raw);
  if (!parsed.success) {
    return {
      problems: [
        `${where}:\n${issueList(parsed.issues)}\n  Fix: a test is { "name": string, ` +
          `"session": start_session arguments, "steps": run_script steps, "defaults"?, ` +
          `"timeoutMs"?, "retries"?, "skip"? }.`,
      ],
    };
  }
  const t = parsed.output;
  const at = `${where} ("${t.name}")`;
  const problems: string[] = [];
  const session = v.safeParse(startSessionTool.input, {
    ...t.session,
    cwd: resolve(dirname(file), String(t.session.cwd ?? ".")),
  });
  if (!session.success)
    problems.push(
      `${at} session:\n${issueList(session.issues)}\n  Fix: "session" takes ` +
        `start_session's arguments (command, args, cwd, env, cols, rows, term, name).`,
    );
  for (const [index, step] of t.steps.entries()) {
    if (hasGoldens(step) && ("dir" in step || "update" in step)) {
      problems.push(
        `${at} steps[${index}] (${step.type}): "dir" and "update" are set by the ` +
          `test runner.\n  Fix: remove them; goldens live in ` +
          `__snapshots__/${basename(file)}/, and --update-snapshots rewrites them.`,
      );
    }
  }
  // checked whether the session parsed or not, so that every problem of a file is reported at once
  const unchecked: Omit<TestCase, "session"> = {
    file,
    relFile,
    name: t.name,
    title: `${relFile} › ${t.name}`,
    steps: t.steps,
    defaults: t.defaults,
    timeoutMs: t.timeoutMs,
    retries: t.retries,
    skip: t.skip,
  };
  {
    // run_script's own schema and checks (step types, arguments, key names, regexes), as an agent's script gets them
    const script = v.safeParse(runScriptTool.input, {
      sessionId: "tui-check",
      steps: stepsAsRun(unchecked, "none"),
      defaults: t.defaults,
    });
    if (!script.success) {
      problems.push(
        `${at} steps:\n${issueList(script.issues)}\n  Fix: each step is { "type": a ` +
          `run_script step type, ...that tool's arguments without sessionId, "label"?, ` +
          `"continueOnError"? }.`,
      );
    } else {
      try {
        runScriptTool.check?.(script.output);
      } catch (error) {
        const e = toTuiError(error);
        problems.push(`${at} ${e.message}${e.hint ? `\n  Fix: ${e.hint}` : ""}`);
      }
    }
  }
  if (problems.length > 0 || !session.success) return { problems };
  return { test: { ...unchecked, session: session.output }, problems };
}

/** Every test of every file, or every problem found in them (all files are checked, not just the first bad one). */
export async function loadTests(
  files: string[],
  cwd = process.cwd(),
): Promise<{ tests: TestCase[]; problems: string[] }> {
  const tests: TestCase[] = [];
  const problems: string[] = [];
  for (const file of files) {
    const relFile = relative(cwd, file) || basename(file);
    let content: unknown;
    try {
      content = await parseFile(file);
    } catch (error) {
      problems.push(`${relFile}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const list = Array.isArray(content) ? content : [content];
    if (list.length === 0) {
      problems.push(`${relFile}: the file holds an empty list.\n  Fix: put at least one test in it, or delete it.`);
      continue;
    }
    const names = new Set<string>();
    const goldens = new Map<string, string>();
    for (const [index, raw] of list.entries()) {
      const where = Array.isArray(content) ? `${relFile} tests[${index}]` : relFile;
      const { test, problems: found } = checkTest(raw, where, file, relFile);
      problems.push(...found);
      if (!test) continue;
      if (names.has(test.name))
        problems.push(
          `${where}: a second test is named "${test.name}".\n  Fix: give every test in a ` +
            `file its own name (reports and --filter use it).`,
        );
      names.add(test.name);
      for (const [stepIndex, step] of test.steps.entries()) {
        const key = goldenName(step);
        if (key === undefined) continue;
        const owner = goldens.get(key);
        if (owner !== undefined)
          problems.push(
            `${where} ("${test.name}") steps[${stepIndex}] (${step.type}): the golden ` +
              `"${key}" is already used by ${owner.replace(/#(\d+)$/, " steps[$1]")}.\n  Fix: ` +
              `give each expect_snapshot and expect_file golden in a file its own name.`,
          );
        goldens.set(key, `${test.name}#${stepIndex}`);
      }
      tests.push(test);
    }
  }
  return { tests, problems };
}
