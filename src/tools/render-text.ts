/**
 * The model's view of a result: a compact text rendering, the way Playwright MCP renders markdown
 * sections. A summary line, what changed (rows with 0-based numbers), the screen as plain text with
 * trailing blank rows dropped, highlights, and every other field as a short `key: value` line, so
 * nothing an agent needs is lost. The full JSON stays in structuredContent.
 */

type Data = Record<string, any>;

/** Fields never shown as text: duplicates of what is rendered elsewhere (the summary), or of the request. */
const HIDDEN = new Set(["sessionId", "lines", "specs", "hex", "keyCount"]);

/** Larger cells JSON is left to structuredContent instead of being printed twice. */
const MAX_TEXT_CELLS_BYTES = 64 * 1024;

/** Above this many changed rows (and half the screen) the rows are not listed: the screen shows them. */
const MANY_ROWS = 8;

const isObject = (x: unknown): x is Data => typeof x === "object" && x !== null && !Array.isArray(x);

/** Screen text with trailing blank rows dropped; an all-blank screen says so. */
export function screenText(text: string): string {
  const trimmed = text.replace(/\s+$/, "");
  return trimmed === "" ? "(blank screen)" : trimmed;
}

/** "row,col" plus " hidden" when the app hid the cursor. */
function cursorAt(cursor: Data | undefined): string {
  if (!isObject(cursor)) return "";
  return `${cursor.row},${cursor.col}${cursor.visible === false ? " hidden" : ""}`;
}

export function cursorText(cursor: Data | undefined): string {
  return isObject(cursor) ? `cursor ${cursorAt(cursor)}` : "";
}

/** Most highlights listed in the text; a screen painted all over in colour has more than a selection. */
const MAX_HIGHLIGHTS = 40;

function highlightLines(highlights: unknown): string[] {
  if (!Array.isArray(highlights) || highlights.length === 0) return [];
  const more = highlights.length - MAX_HIGHLIGHTS;
  return [
    "Highlighted (row:cols kind text):",
    ...highlights.slice(0, MAX_HIGHLIGHTS).map((h: Data) => `${h.row}:${h.startCol}-${h.endCol} ${h.kind} ${JSON.stringify(h.text)}`),
    ...(more > 0 ? [`(${more} more in structuredContent)`] : []),
  ];
}

/** A screen view (snapshot, get_text, a wait's screen, an after-screen). */
function viewLines(view: Data, title = "Screen"): string[] {
  const size = view.cols !== undefined ? `${view.cols}x${view.rows}` : "";
  const head = [size, cursorText(view.cursor)].filter(Boolean).join(", ");
  const out = [`${title}${head ? ` (${head})` : ""}:`, screenText(String(view.text ?? (Array.isArray(view.lines) ? view.lines.join("\n") : "")))];
  out.push(...highlightLines(view.highlights));
  return out;
}

/** The changed rows of a diff, as `row- before` / `row+ after` (blank sides omitted). */
function diffLines(diff: Data, showAll: boolean, afterOnly: boolean): string[] {
  const changed: Data[] = diff.changedLines ?? [];
  const added: Data[] = diff.addedRows ?? [];
  const removed: Data[] = diff.removedRows ?? [];
  if (diff.identical) return ["Screen unchanged."];
  const out: string[] = [];
  if (changed.length > 0) {
    if (!showAll && changed.length > MANY_ROWS) {
      out.push(`Changed rows: ${ranges(changed.map((c) => c.row))} (see screen).`);
    } else {
      out.push("Changed rows:");
      for (const c of changed) {
        if (!afterOnly && String(c.before).trim() !== "") out.push(`${c.row}- ${c.before}`);
        out.push(`${c.row}+ ${c.after}`);
      }
    }
  }
  for (const r of added) out.push(`${r.row}+ ${r.text} (added row)`);
  for (const r of removed) out.push(`${r.row}- ${r.text} (removed row)`);
  if (diff.resized) out.push("Screen resized.");
  if (out.length === 0 && diff.cursorMoved) out.push("Only the cursor moved.");
  return out;
}

function ranges(rows: number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < rows.length; i++) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === rows[j]! + 1) j++;
    parts.push(j > i ? `${rows[i]}-${rows[j]}` : `${rows[i]}`);
    i = j;
  }
  return parts.join(",");
}

/** What a busy program was doing, as the end of a sentence ("is running"). */
function busyText(busy: Data): string {
  const who = `${busy.command} (pid ${busy.pid})`;
  if (busy.state === "timer") return `${who} is in a ${busy.timerDueMs !== undefined ? `${busy.timerDueMs} ms ` : ""}timed wait`;
  return `${who} is ${busy.state === "running" ? "running" : "waiting on something other than input"}`;
}

/** One line saying how the settle ended (the ready oracle's verdict, docs/ready-oracle.md). */
function settleLine(block: Data): string {
  const ms = block.waitedMs;
  const program = block.program ?? "the program";
  const busy = isObject(block.busy) ? block.busy : undefined;
  switch (block.settledBy) {
    case "idle":
      return `Settled in ${ms} ms: ${program} is waiting for input.`;
    case "periodic":
      return `Settled in ${ms} ms: ${program} is waiting for input and redraws on a timer.`;
    case "exit":
      return `Settled in ${ms} ms: the program exited.`;
    case "quiet":
      return `Settled after ${ms} ms: output quiet for 100 ms (${block.fallback ?? "no view of the program"}; it may still be working).`;
    case "timeout":
      if (busy) return `Still busy after ${ms} ms: ${busyText(busy)}. Use waitFor or wait_for_idle to catch the rest.`;
      return `Output still arriving after ${ms} ms: use waitFor or wait_for_idle to catch later output.`;
    case "waitFor":
      return `Text seen after ${ms} ms${busy ? `; ${busyText(busy)}` : ""}.`;
    default:
      return `Waited ${block.waitAfterMs} ms${busy ? `; ${busyText(busy)}` : ""}.`;
  }
}

/** The before/after block of an input: settle line, changed rows, after-screen (never the before-screen). */
function screenBlockLines(block: Data): string[] {
  const out: string[] = [];
  if (typeof block.settledBy === "string") {
    const status = block.commandStatus === undefined ? "" : ` The command finished${block.commandStatus === null ? "" : ` with exit status ${block.commandStatus}`}.`;
    out.push(settleLine(block) + status);
  } else if (block.waitedMs !== undefined) {
    const quiet = block.quiet === false ? ", output still arriving: use waitFor or wait_for_idle to catch later output" : block.quiet === true ? ", quiet" : "";
    out.push(`Settled after ${block.waitedMs} ms${quiet}.`);
  } else if (block.settle === "fixed") {
    out.push(`Waited ${block.waitAfterMs} ms.`);
  }
  if (block.after) {
    const rows = Number(block.after.rows ?? 0);
    const changed = (block.diff?.changedLines ?? []).length;
    const listAll = changed <= MANY_ROWS || changed <= rows / 2;
    if (block.diff) out.push(...diffLines(block.diff, listAll, false));
    if (!block.diff?.identical) out.push(...viewLines(block.after));
    else out.push(`Cursor ${cursorAt(block.after.cursor)}.`, ...highlightLines(block.after.highlights));
  } else if (block.diff) {
    const changed = (block.diff.changedLines ?? []).length;
    out.push(...diffLines(block.diff, true, changed > MANY_ROWS));
    if (block.cursor) out.push(`Cursor ${cursorAt(block.cursor)}.`);
    out.push(...highlightLines(block.highlights));
  }
  return out.filter(Boolean);
}

function matchLines(wait: Data, prefix: string): string[] {
  if (!wait.matched || wait.match === undefined || wait.match === null || wait.match === wait.pattern) return [];
  return [`${prefix}match: ${JSON.stringify(wait.match)}`];
}

function scalar(value: unknown): string {
  if (typeof value === "string") return value.includes("\n") || value.length > 60 ? JSON.stringify(value) : value;
  return JSON.stringify(value);
}

/** Leftover fields as `key: value` lines (objects as compact JSON), so nothing is silently dropped. */
function fieldLines(data: Data, skip: Set<string>): string[] {
  const simple: string[] = [];
  const complex: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    // null means "not applicable" here (no exit code while running): structuredContent has it
    if (skip.has(key) || HIDDEN.has(key) || value === undefined || value === null) continue;
    if (value === null || typeof value !== "object") simple.push(`${key}: ${scalar(value)}`);
    else if (Array.isArray(value) && value.length === 0) continue;
    else complex.push(`${key}: ${JSON.stringify(value)}`);
  }
  return [...(simple.length ? [simple.join(", ")] : []), ...complex];
}

function framesLines(frames: Data[]): string[] {
  const out: string[] = [];
  for (const [i, frame] of frames.entries()) {
    if (i > 0 && frame.changed === false) continue;
    const head = `Frame ${i} at +${frame.offsetMs} ms${frame.cursor ? `, ${cursorText(frame.cursor)}` : ""}:`;
    if (i === 0 && typeof frame.text === "string") out.push(head, screenText(frame.text));
    else if (frame.diff) out.push(head, ...diffLines(frame.diff, true, true));
    else if (typeof frame.text === "string") out.push(head, screenText(frame.text));
  }
  return out;
}

function stepLines(results: Data[]): string[] {
  return results.flatMap((step) => {
    const name = `${step.index} ${step.type}${step.label ? ` "${step.label}"` : ""}`;
    if (!step.ok) {
      const e = step.error ?? {};
      return [`Step ${name} FAILED ${e.code}: ${e.message}${e.hint ? ` Fix: ${e.hint}` : ""}`, ...(isObject(step.result) ? bodyLines(step.result, true) : [])];
    }
    const body = isObject(step.result) ? bodyLines(step.result, true) : [];
    return [`Step ${name} ok${step.summary ? `: ${step.summary}` : ""} (${step.elapsedMs} ms)`, ...body.map((l) => `  ${l}`)];
  });
}

/** Everything below the summary line. `inScript` skips per-step screens (the script shows the final one). */
function bodyLines(data: Data, inScript = false): string[] {
  const out: string[] = [];
  const skip = new Set<string>(["screen", "waitFor", "finalSnapshot", "results", "frames", "error", "details", "sessions", "scrollback", "info", "cells", "ansi", "summary"]);
  // A top-level screen view: snapshot, get_text.
  const isView = typeof data.text === "string" && (isObject(data.cursor) || data.cols !== undefined);
  if (isView) for (const k of ["text", "cursor", "cols", "rows", "highlights"]) skip.add(k);
  if (isObject(data.waitFor)) out.push(...matchLines(data.waitFor, "waitFor "));
  // A wait result: the summary says matched/elapsed/timeout; show the match itself when it adds something.
  if (typeof data.matched === "boolean" && "pattern" in data) {
    for (const k of ["pattern", "matched", "match", "timedOut", "elapsedMs", "timeoutMs"]) skip.add(k);
    if (data.matchedAgainst === "screen") skip.add("matchedAgainst");
    out.push(...matchLines(data, ""));
  }
  if (isObject(data.info)) out.push(...fieldLines(data.info, new Set(["modes", "viewer", "createdAt", "args", "sessionId", "id"])));
  if (Array.isArray(data.sessions)) {
    for (const s of data.sessions as Data[]) {
      out.push(`${s.id ?? s.sessionId}${s.name ? ` "${s.name}"` : ""}: ${s.state}, ${s.command}${s.args?.length ? ` ${s.args.join(" ")}` : ""}, pid ${s.pid}, ${s.cols}x${s.rows}${s.exitCode !== null && s.exitCode !== undefined ? `, exit ${s.exitCode}` : ""}${s.signal ? `, ${s.signal}` : ""}${s.droppedBytes ? `, droppedBytes ${s.droppedBytes}` : ""}`);
    }
  }
  out.push(...fieldLines(data, skip));
  if (isObject(data.screen)) {
    if (data.screen.diff && inScript) out.push(...diffLines(data.screen.diff, true, true));
    else if (data.screen.diff) out.push(...screenBlockLines(data.screen));
    else if (!inScript) out.push(...viewLines(data.screen));
  }
  if (Array.isArray(data.results)) out.push(...stepLines(data.results));
  if (Array.isArray(data.frames)) out.push(...framesLines(data.frames));
  if (isView) out.push(...viewLines(data));
  if (typeof data.ansi === "string") out.push("ANSI:", data.ansi);
  if (data.cells !== undefined) {
    // Cells are for programs; a model reads the screen and its highlights. Small ones are shown anyway.
    const cells = JSON.stringify(data.cells);
    out.push(cells.length <= MAX_TEXT_CELLS_BYTES ? `Cells: ${cells}` : `Cells: ${cells.length} bytes of JSON, in structuredContent.cells.`);
  }
  if (isObject(data.scrollback)) {
    const sb = data.scrollback;
    out.push(`Buffer (${sb.totalLines} lines${sb.truncated ? `, last ${sb.maxLines} shown` : ""}${sb.isAltScreen ? ", alternate screen" : ""}):`, String(sb.text ?? ""));
    if (isObject(sb.normalBuffer)) out.push(`Normal buffer behind the alternate screen (${sb.normalBuffer.totalLines} lines):`, String(sb.normalBuffer.text ?? ""));
  }
  if (isObject(data.finalSnapshot)) out.push(...viewLines(data.finalSnapshot, "Final screen"));
  return out;
}

export function renderText(summary: string, data: Data): string {
  // The summary is one line whatever a handler put in it (a pattern with a newline, say).
  return [summary.replaceAll("\r", "\\r").replaceAll("\n", "\\n"), ...bodyLines(data)].join("\n");
}

export function renderErrorText(error: { code: string; message: string; hint?: string }, details: Data | undefined): string {
  const out = [`Error ${error.code}: ${error.message}`];
  if (error.hint) out.push(`Fix: ${error.hint}`);
  if (isObject(details)) out.push(...bodyLines(details));
  return out.join("\n");
}
