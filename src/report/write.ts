/** `--reporter html`: the run written as DIR/index.html (recordings stay beside it in DIR/recordings). */
import { mkdir } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { reportHtml } from "./html.ts";
import { buildTestView, type TestView } from "./model.ts";
import type { ReportedSummary, ReportedTest } from "./types.ts";

export type TraceMode = "on" | "retain-on-failure" | "off";

export interface ReportRun {
  /** Per test, in run order: its planned steps (as in the test file) and its result. */
  tests: { steps: Record<string, unknown>[]; result: ReportedTest }[];
  summary: ReportedSummary;
  version: string;
  trace: TraceMode;
}

/** Where a test's recording goes when the html reporter keeps traces. */
export const recordingsDir = (reportDir: string) => join(resolve(reportDir), "recordings");

export async function writeHtmlReport(reportDir: string, run: ReportRun): Promise<{ path: string; bytes: number }> {
  const dir = resolve(reportDir);
  await mkdir(dir, { recursive: true });
  const views: TestView[] = [];
  for (const [i, { steps, result }] of run.tests.entries()) {
    const path = result.recording?.path;
    const inside = path !== undefined && resolve(path).startsWith(dir + sep);
    views.push(
      await buildTestView(
        `test-${i + 1}`,
        result,
        steps,
        inside ? relative(dir, path).split(sep).join("/") : undefined,
      ),
    );
  }
  const html = await reportHtml({
    summary: run.summary,
    tests: views,
    version: run.version,
    generatedAt: new Date(),
    trace: run.trace,
  });
  const path = join(dir, "index.html");
  await Bun.write(path, html);
  return { path, bytes: Buffer.byteLength(html) };
}
