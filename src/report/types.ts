/**
 * What the report reads of a run, by shape: the test runner's TestResult and RunSummary fit these
 * (report/ stands below cli/, which imports it, so it names no cli/ type).
 */
export interface ReportedStep {
  index: number;
  type: string;
  label?: string;
  ok: boolean;
  elapsedMs: number;
  error?: { code: string; message: string; hint?: string };
  result?: Record<string, unknown>;
}

export interface ReportedTest {
  title: string;
  file: string;
  name: string;
  status: "passed" | "failed" | "skipped";
  flaky: boolean;
  attempts: number;
  durationMs: number;
  failure?: { code: string; message: string; hint?: string; step?: number; stepType?: string; timedOut?: boolean };
  steps: ReportedStep[];
  screen?: { lines: string[] };
  recording?: { path?: string; unavailable?: string; stepEndsMs?: number[] };
}

export interface ReportedSummary {
  passed: number;
  failed: number;
  flaky: number;
  skipped: number;
  durationMs: number;
}
