/**
 * runTests(): test files (*.tui.json, *.tui.yaml) run from a script as `tui-tester test` and the
 * run_tests tool run them, on an engine of their own that is closed when the run ends.
 */
import { parseConfig } from "../config.ts";
import { runTests as run, type RunTestsOptions, type RunTestsResult } from "../cli/run-tests.ts";
import { createServerContext } from "../tools/context.ts";

export type { RunTestsOptions, RunTestsResult };

export async function runTests(options: RunTestsOptions = {}): Promise<RunTestsResult> {
  const config = parseConfig(process.env, { log: "silent" });
  const context = createServerContext({ ...config, screenDetail: "diff" });
  try {
    return await run(options, context);
  } finally {
    await context.close();
  }
}
