/** stdout is the MCP protocol: every log line goes to stderr. */
const quiet = process.env.TUI_TESTER_LOG === "silent";

export function log(...parts: unknown[]): void {
  if (quiet) return;
  process.stderr.write(`[tui-tester] ${parts.map((p) => (typeof p === "string" ? p : JSON.stringify(p))).join(" ")}\n`);
}
