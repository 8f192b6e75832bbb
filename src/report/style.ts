/** The report page's styles (inlined). */
export const REPORT_CSS = `
:root { color-scheme: light dark; --bg: #fafafa; --panel: #fff; --line: #ddd; --text: #222; --muted: #777;
  --pass: #1a7f37; --fail: #cf222e; --flaky: #b58100; --accent: #0969da; }
@media (prefers-color-scheme: dark) { :root { --bg: #111; --panel: #1b1b1b; --line: #333; --text: #ddd; --muted: #999;
  --pass: #3fb950; --fail: #f85149; --flaky: #d29922; --accent: #4ea1ff; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text); font: 14px/1.45 system-ui, sans-serif; }
header { padding: 16px 24px; border-bottom: 1px solid var(--line); background: var(--panel); }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 0 0 4px; }
h3 { font-size: 13px; margin: 14px 0 6px; color: var(--muted); text-transform: uppercase; letter-spacing: .04em; }
main { padding: 16px 24px; max-width: 1100px; }
.summary { font-size: 16px; font-weight: 600; margin: 0; }
.summary.failed { color: var(--fail); } .summary.passed { color: var(--pass); }
.facts { color: var(--muted); margin: 2px 0; }
table.tests { border-collapse: collapse; width: 100%; background: var(--panel); margin-bottom: 24px; }
table.tests th, table.tests td { border-bottom: 1px solid var(--line); padding: 6px 10px; text-align: left; }
table.tests td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.file { color: var(--muted); font-family: monospace; font-size: 12px; }
tr.passed .status, section.passed h2 .icon, li.passed .icon { color: var(--pass); }
tr.failed .status, section.failed h2 .icon, li.failed .icon { color: var(--fail); }
tr.flaky .status, section.flaky h2 .icon { color: var(--flaky); }
tr.skipped .status, li.not-run { color: var(--muted); }
section.test { background: var(--panel); border: 1px solid var(--line); border-radius: 6px;\
 padding: 14px 18px; margin-bottom: 20px; }
section.test.failed { border-left: 4px solid var(--fail); }
.failure pre, pre.error { background: color-mix(in srgb, var(--fail) 10%, transparent);\
 border-left: 3px solid var(--fail);
  padding: 8px 10px; white-space: pre-wrap; margin: 6px 0; }
pre.diff { background: #0d1117; color: #ccc; padding: 8px 10px; overflow-x: auto; }
pre.diff .del { color: #ff7b72; } pre.diff .add { color: #7ee787; }
pre.text-screen { background: #000; color: #e5e5e5; padding: 8px; overflow-x: auto; }
ol.steps { list-style: none; padding: 0; margin: 0; }
li.step { border-top: 1px solid var(--line); padding: 8px 0; }
li.step[data-marker] .step-head { cursor: pointer; }
li.step[data-marker] .step-head:hover { color: var(--accent); }
li.step.current { background: color-mix(in srgb, var(--accent) 8%, transparent); }
li.step.failed { background: color-mix(in srgb, var(--fail) 6%, transparent); }
.step-head .time, .changed-note { color: var(--muted); font-size: 12px; margin-left: 8px; }
.label { color: var(--muted); }
code.input { display: block; font-size: 12px; color: var(--muted); margin: 2px 0 4px 18px; word-break: break-all; }
.screen { margin: 6px 0 0 18px; overflow-x: auto; }
.screen svg { display: block; max-width: 100%; height: auto; border: 1px solid var(--line); }
.player { max-width: 900px; }
.note { color: var(--flaky); }
`;
