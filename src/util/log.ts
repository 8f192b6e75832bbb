/**
 * stdout is the MCP protocol: every log line goes to stderr. The log is bounded: each line is cut at
 * MAX_LINE_CHARS, and at most BURST lines go out per second; what is held back is counted and the
 * count is reported with the next line that goes out.
 */
/**
 * One switch for the process: the log shares one stderr (and its rate limit) whichever server or
 * runner writes, so it is process state, set once from the Config (TUI_TESTER_LOG) at start-up.
 */
let quiet = false;
const MAX_LINE_CHARS = 2000;
const BURST = 50;
const WINDOW_MS = 1000;

let windowStart = 0;
let sentInWindow = 0;
let suppressed = 0;

export function setLogLevel(level: "on" | "silent"): void {
  quiet = level === "silent";
}

export function log(...parts: unknown[]): void {
  if (quiet) return;
  const now = performance.now();
  if (now - windowStart >= WINDOW_MS) {
    windowStart = now;
    sentInWindow = 0;
  }
  if (sentInWindow >= BURST) {
    suppressed++;
    return;
  }
  sentInWindow++;
  let line = parts.map((p) => escapeControls(typeof p === "string" ? p : String(JSON.stringify(p)))).join(" ");
  if (line.length > MAX_LINE_CHARS)
    line = `${line.slice(0, MAX_LINE_CHARS)}… (${line.length - MAX_LINE_CHARS} more chars)`;
  if (suppressed > 0) {
    line = `(${suppressed} log lines suppressed) ${line}`;
    suppressed = 0;
  }
  process.stderr.write(`[tui-tester] ${line}\n`);
}

/**
 * Control characters in a logged field (a command argument, a session name, a pattern) are shown
 * escaped: a newline in one would forge a log line of its own, and an ESC would reach the reader's
 * terminal raw. C0, DEL, C1 and the Unicode line and paragraph separators are escaped.
 */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => CONTROL_NAMES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const CONTROL_NAMES: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\u001b": "\\x1b" };
