/**
 * JUnit XML as CI systems read it (the Ant/Jenkins "testsuites" dialect that GitHub, GitLab and
 * Jenkins accept): one testsuite per test file, one testcase per test, failure bodies in plain text.
 */
import { failureReport } from "./report.ts";
import { paint } from "./progress.ts";
import type { TestResult } from "./run-test.ts";

/** XML 1.0 allows only these characters (https://www.w3.org/TR/xml/#charsets); ESC and friends are shown as \xNN. */
const NOT_XML_CHAR = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlEscape(text: string): string {
  return text
    .replace(NOT_XML_CHAR, (c) => `\\x${c.codePointAt(0)!.toString(16).padStart(2, "0")}`)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

const seconds = (ms: number) => (ms / 1000).toFixed(3);

export function junitReport(results: TestResult[], durationMs: number, timestamp = new Date()): string {
  const byFile = new Map<string, TestResult[]>();
  for (const r of results) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
  const count = (rs: TestResult[], status: TestResult["status"]) => rs.filter((r) => r.status === status).length;
  const plain = paint(false);
  const suites = [...byFile].map(([file, rs]) => {
    const cases = rs.map((r) => {
      const open =
        `    <testcase name="${xmlEscape(r.name)}" classname="${xmlEscape(file)}" ` +
        `file="${xmlEscape(file)}" time="${seconds(r.durationMs)}"`;
      if (r.status === "skipped") return `${open}>\n      <skipped/>\n    </testcase>`;
      if (r.status === "passed")
        return r.flaky
          ? `${open}>\n      <system-out>` +
              `${xmlEscape(`flaky: passed on attempt ${r.attempts}`)}</system-out>\n    </testcase>`
          : `${open}/>`;
      const f = r.failure!;
      return (
        `${open}>\n      <failure ` +
        `message="${xmlEscape(f.message.split("\n")[0]!.slice(0, 500))}" ` +
        `type="${xmlEscape(f.code)}">${xmlEscape(failureReport(r, plain))}</failure>\n    </testcase>`
      );
    });
    const time = rs.reduce((sum, r) => sum + r.durationMs, 0);
    return (
      `  <testsuite name="${xmlEscape(file)}" tests="${rs.length}" ` +
      `failures="${count(rs, "failed")}" errors="0" skipped="${count(rs, "skipped")}" ` +
      `time="${seconds(time)}" ` +
      `timestamp="${timestamp.toISOString().slice(0, 19)}">\n${cases.join("\n")}\n  </testsuite>`
    );
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="tui-tester" ` +
    `tests="${results.length}" failures="${count(results, "failed")}" errors="0" ` +
    `skipped="${count(results, "skipped")}" ` +
    `time="${seconds(durationMs)}">\n${suites.join("\n")}\n</testsuites>\n`
  );
}
