/**
 * The report as one HTML file: every asset inlined (player, styles, font, recordings), no network.
 * Everything from tests is escaped; recordings and markers travel as JSON in script elements of
 * type application/json, with "<" escaped so no text can close the element.
 */
import type { ReportedSummary } from "./types.ts";
import { reportAssets } from "./assets.ts";
import type { StepView, TestView } from "./model.ts";
import { REPORT_CSS } from "./style.ts";

/** 850 ms, 2.4 s, 1m 05s: as the list reporter prints them. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)}m ${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
const json = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

export interface ReportPage {
  summary: ReportedSummary;
  tests: TestView[];
  version: string;
  generatedAt: Date;
  trace: string;
}

function statusOf(view: TestView): string {
  return view.result.flaky ? "flaky" : view.result.status;
}

const STATUS_ICON: Record<string, string> = {
  passed: "✓",
  failed: "✗",
  skipped: "–",
  flaky: "!",
  "not run": "·",
};

function testRow(view: TestView): string {
  const r = view.result;
  const status = statusOf(view);
  return (
    `<tr class="${status}"><td class="status">${STATUS_ICON[status]} ` +
    `${status}</td><td><a href="#${view.id}">${escapeHtml(r.name)}</a></td>` +
    `<td class="file">${escapeHtml(r.file)}</td><td ` +
    `class="num">${formatDuration(r.durationMs)}</td><td ` +
    `class="num">${Math.max(0, r.attempts - 1)}</td></tr>`
  );
}

function stepItem(step: StepView, view: TestView): string {
  const title =
    `${step.index} ${escapeHtml(step.type)}` +
    `${step.label ? ` <span class="label">“${escapeHtml(step.label)}”</span>` : ""}`;
  const time = step.elapsedMs !== undefined ? `<span class="time">${formatDuration(step.elapsedMs)}</span>` : "";
  const input = step.input ? `<code class="input">${escapeHtml(step.input)}</code>` : "";
  const error = step.error
    ? `<pre class="error">${escapeHtml(
        `${step.error.code}: ${step.error.message}${step.error.hint ? `\nFix: ${step.error.hint}` : ""}`,
      )}</pre>`
    : "";
  const diff = step.diff ? `<pre class="diff">${diffLines(step.diff)}</pre>` : "";
  const changed =
    step.changedRows.length > 0
      ? `<span class="changed-note">${step.changedRows.length} row(s) changed</span>`
      : step.svg
        ? `<span class="changed-note">no change</span>`
        : "";
  const seek = step.marker !== undefined && view.cast ? ` data-marker="${step.marker}" title="Play from here"` : "";
  const screen = step.svg ? `<div class="screen">${step.svg}</div>` : "";
  return (
    `<li class="step ${step.status.replace(" ", "-")}"${seek}><div ` +
    `class="step-head"><span class="icon">${STATUS_ICON[step.status]}</span> ` +
    `${title} ${time} ${changed}</div>${input}${error}${diff}${screen}</li>`
  );
}

function diffLines(diff: string): string {
  return diff
    .split("\n")
    .map(
      (line) =>
        `<span class="${/^\s*-/.test(line) ? "del" : /^\s*\+/.test(line) ? "add" : ""}">${escapeHtml(line)}</span>`,
    )
    .join("\n");
}

function testSection(view: TestView): string {
  const r = view.result;
  const status = statusOf(view);
  const parts: string[] = [
    `<section class="test ${status}" id="${view.id}">`,
    `<h2><span class="icon">${STATUS_ICON[status]}</span> ${escapeHtml(r.title)}</h2>`,
  ];
  const facts = [`${status}`, formatDuration(r.durationMs), `${r.attempts} attempt(s)`, escapeHtml(r.file)];
  parts.push(`<p class="facts">${facts.join(" · ")}</p>`);
  if (r.failure) {
    const f = r.failure;
    const where =
      f.step !== undefined
        ? `step ${f.step} (${escapeHtml(f.stepType ?? "")}) failed: `
        : f.timedOut
          ? "timed out: "
          : "";
    parts.push(
      `<div class="failure"><pre>${where}${escapeHtml(f.code)}: ` +
        `${escapeHtml(f.message)}${f.hint ? `\nFix: ${escapeHtml(f.hint)}` : ""}</pre></div>`,
    );
    if (!view.finalSvg && r.screen)
      parts.push(
        `<h3>Screen at the failure</h3><pre class="text-screen">${escapeHtml(r.screen.lines.join("\n"))}</pre>`,
      );
  }
  if (view.finalSvg)
    parts.push(
      `<h3>${r.failure ? "Screen at the failure" : "Last screen"}</h3><div class="screen final">${view.finalSvg}</div>`,
    );
  if (view.cast) {
    parts.push(`<h3>Recording</h3><div class="player" data-test="${view.id}"></div>`);
    parts.push(
      `<script type="application/json" ` +
        `id="cast-${view.id}">${json({ cast: view.cast, markers: view.markers })}</script>`,
    );
  }
  if (view.recordingHref)
    parts.push(
      `<p class="facts"><a href="${escapeHtml(view.recordingHref)}">recording ` +
        `file</a> (asciinema play, tui-tester gif)</p>`,
    );
  if (view.note) parts.push(`<p class="note">${escapeHtml(view.note)}</p>`);
  else if (r.recording?.unavailable) parts.push(`<p class="note">${escapeHtml(r.recording.unavailable)}</p>`);
  if (view.steps.length > 0)
    parts.push(`<h3>Steps</h3><ol class="steps">${view.steps.map((s) => stepItem(s, view)).join("")}</ol>`);
  parts.push("</section>");
  return parts.join("\n");
}

export async function reportHtml(page: ReportPage): Promise<string> {
  const assets = await reportAssets();
  const s = page.summary;
  const counts = [
    `${s.passed} passed`,
    s.failed ? `${s.failed} failed` : "",
    s.flaky ? `${s.flaky} flaky` : "",
    s.skipped ? `${s.skipped} skipped` : "",
  ]
    .filter(Boolean)
    .join(", ");
  const fontFace = (data: string, weight: string) =>
    `@font-face { font-family: "DejaVu Sans Mono"; src: ` +
    `url(data:font/ttf;base64,${data}) format("truetype"); font-weight: ${weight}; }`;
  const summary =
    `<p class="summary ${s.failed ? "failed" : "passed"}">` +
    `${escapeHtml(counts)} in ${formatDuration(s.durationMs)}</p>`;
  const facts =
    `<p class="facts">tui-tester ${escapeHtml(page.version)} · ` +
    `${escapeHtml(page.generatedAt.toISOString())} · trace: ${escapeHtml(page.trace)}</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tui-tester report: ${escapeHtml(counts)}</title>
<style>${fontFace(assets.fonts.regular, "normal")}\n${fontFace(assets.fonts.bold, "bold")}</style>
<style>${assets.playerCss}</style>
<style>${REPORT_CSS}</style>
</head>
<body>
<header><h1>tui-tester report</h1>${summary}
${facts}</header>
<main>
<table class="tests"><thead><tr><th>Status</th><th>Test</th><th>File</th><th>Time</th><th>Retries</th></tr></thead>
<tbody>${page.tests.map(testRow).join("")}</tbody></table>
${page.tests.map(testSection).join("\n")}
</main>
<script>${assets.playerJs.replace(/<\/script/gi, "<\\/script")}</script>
<script>${assets.pageJs.replace(/<\/script/gi, "<\\/script")}</script>
</body>
</html>
`;
}
