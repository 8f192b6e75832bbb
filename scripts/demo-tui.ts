#!/usr/bin/env bun
/**
 * A self-contained demo TUI for trying tui-tester (and the visible viewer) without installing an
 * app: a checklist moved with the arrow keys, space toggles, a spinner so monitors have frames.
 *
 *   bun scripts/demo-tui.ts        up/down move, space toggles, q or ctrl+c quits
 */

const ESC = "\x1b";
const items = ["chrome-devtools", "filesystem", "github", "postgres", "puppeteer", "slack"];
const checked = new Set<number>([0]);
const SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
let selected = 0;
let ticks = 0;
let status = "ready";
let done = false;

function out(text: string): void {
  process.stdout.write(text);
}

/** Pad or cut to exactly `width` columns (the demo's text is all single-width). */
function fit(text: string, width: number): string {
  return text.length >= width ? text.slice(0, width) : text + " ".repeat(width - text.length);
}

function draw(): void {
  const cols = process.stdout.columns || 80;
  const rows = process.stdout.rows || 24;
  const lines: string[] = [];
  // READY stays in the title bar from the first frame on, so a wait for it cannot miss a frame
  lines.push(`${ESC}[1;7m${fit(" tui-tester demo  READY", cols)}${ESC}[0m`);
  lines.push("");
  items.forEach((name, i) => {
    const row = ` ${checked.has(i) ? "[x]" : "[ ]"} ${name}`;
    lines.push(
      i === selected ? `${ESC}[7m${fit(`>${row}`, Math.min(cols, 40))}${ESC}[0m` : fit(` ${row}`, Math.min(cols, 40)),
    );
  });
  lines.push("");
  lines.push(`${SPINNER[ticks % SPINNER.length]} working... tick ${ticks}`);
  // Status line on the last row; rows in between are cleared so a shrink leaves nothing behind.
  let frame = `${ESC}[?2026h${ESC}[H`;
  for (const [i, line] of lines.entries()) if (i < rows - 1) frame += `${line}${ESC}[K\r\n`;
  frame += `${ESC}[J${ESC}[${rows};1H${ESC}[2m${fit(`${status} | ${checked.size}/${items.length} selected | ${cols}x${rows} | q quits`, cols - 1)}${ESC}[0m`;
  out(`${frame}${ESC}[?2026l`);
}

function quit(code = 0): void {
  if (done) return;
  done = true;
  clearInterval(timer);
  // Leave the terminal as we found it: main screen, cursor shown, normal cursor keys, cooked mode.
  out(`${ESC}[?1l${ESC}[?25h${ESC}[?1049l`);
  if (process.stdin.isTTY) process.stdin.setRawMode(false);
  process.stdin.pause();
  process.exit(code);
}

/** Handle one read: keys may arrive several to a chunk, so scan instead of matching whole chunks. */
function onInput(data: Buffer): void {
  const s = data.toString("latin1");
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    // ESC [ A (normal cursor keys) and ESC O A (application cursor keys, DECCKM on)
    if (c === ESC && (s[i + 1] === "[" || s[i + 1] === "O") && i + 2 < s.length) {
      const final = s[i + 2];
      if (final === "A") move(-1);
      else if (final === "B") move(1);
      i += 2;
      continue;
    }
    if (c === "q" || c === "\x03") return quit();
    if (c === " ") {
      if (checked.has(selected)) checked.delete(selected);
      else checked.add(selected);
      status = `${checked.has(selected) ? "checked" : "unchecked"} ${items[selected]}`;
    }
  }
  draw();
}

function move(delta: number): void {
  selected = (selected + delta + items.length) % items.length;
  status = `selected ${items[selected]}`;
}

if (process.stdin.isTTY) process.stdin.setRawMode(true);
// alt screen, hidden cursor, application cursor keys (so arrows arrive as ESC O A)
out(`${ESC}[?1049h${ESC}[?25l${ESC}[?1h${ESC}[2J`);
process.stdin.on("data", onInput);
process.stdin.on("end", () => quit());
process.on("SIGWINCH", draw);
for (const signal of ["SIGTERM", "SIGHUP", "SIGINT"] as const) process.on(signal, () => quit(0));
const timer = setInterval(() => {
  ticks++;
  draw();
}, 100);
draw();

// A module, not a global script: its names must not clash with other scripts' in the type check.
export {};
