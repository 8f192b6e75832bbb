#!/usr/bin/env bun
/** Entry: flags, registries, MCP server over stdio, shutdown on stdin end and signals; `test` runs test files. */
import { helpText, parseConfig, settingProblems, VERSION } from "./config.ts";
import { createServer, serveStdio } from "./server.ts";
import { startWatchdog } from "./pty/index.ts";
import { tools } from "./catalog.ts";
import { createServerContext } from "./tools/context.ts";
import { runTests } from "./cli/run-tests.ts";
import { escapeControls, log, setLogLevel } from "./util/log.ts";

const flag = process.argv[2];
if (flag === "--version" || flag === "-v") {
  process.stdout.write(`${VERSION}\n`);
  process.exit(0);
}
if (flag === "--help" || flag === "-h") {
  process.stdout.write(helpText());
  process.exit(0);
}
const problems = settingProblems(
  process.env,
  tools.map((tool) => tool.name),
);
if (problems.length > 0) {
  process.stderr.write(
    `tui-tester: not starting, invalid ` +
      `settings:\n${problems.map((p) => `  ${escapeControls(p)}\n`).join("")}Run ` +
      `tui-tester --help for every variable and its accepted values.\n`,
  );
  process.exit(2);
}
// The settings, parsed once; in test mode the per-session log would drown the report, so it is off
// unless TUI_TESTER_LOG asks for it.
const config = parseConfig(process.env, flag === "test" ? { log: "silent" } : {});
setLogLevel(config.log);
if (flag === "test") {
  const { testCommand } = await import("./cli/command.ts");
  const { code, stdout } = await testCommand(process.argv.slice(3), config);
  if (stdout) await new Promise((done) => process.stdout.write(stdout, done)); // flushed before exit, also into a pipe
  process.exit(code);
}
if (flag === "gif") {
  const { gifCommand } = await import("./cli/gif.ts");
  const { code, stdout } = await gifCommand(process.argv.slice(3), config);
  if (stdout) await new Promise((done) => process.stdout.write(stdout, done));
  process.exit(code);
}
if (flag === "show-report") {
  const { showReport } = await import("./cli/show-report.ts");
  const { stdout, stop, code } = showReport(process.argv.slice(3));
  if (stdout) await new Promise((done) => process.stdout.write(stdout, done));
  if (!stop) process.exit(code ?? 0);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => (stop(), process.exit(0)));
  await new Promise(() => undefined); // serve until a signal
}
if (flag !== undefined) {
  process.stderr.write(`Unknown argument "${escapeControls(flag)}".\n\n${helpText()}`);
  process.exit(2);
}

// Before any session starts: every child inherits the watchdog's mark (src/pty/watchdog.ts).
startWatchdog();
const context = createServerContext(config, { runTests });
// The output directory exists before the first tool call: a screenshot or recording without a path must find it.
try {
  void context.output.path;
} catch (error) {
  process.stderr.write(
    `tui-tester: cannot create TUI_TESTER_OUTPUT_DIR: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(2);
}
const server = createServer(tools, context);

let shuttingDown = false;
async function shutdown(reason: string, code = 0): Promise<void> {
  if (shuttingDown) return;
  shuttingDown = true;
  log(`shutting down (${reason})`);
  const force = setTimeout(() => process.exit(code), 5000);
  await context.close();
  await server.close().catch(() => undefined);
  clearTimeout(force);
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => void shutdown(signal));
process.stdin.on("end", () => void shutdown("stdin closed"));
// Should the transport close without stdin ending, a server that can no longer hear its client must
// not linger. An oversized request is not such a close: stdio-transport.ts refuses that one line and reads on.
server.onclose = () => void shutdown("transport closed");
process.stdin.on("close", () => void shutdown("stdin closed"));
// The server must never crash on a stray error: log it and keep serving.
process.on("uncaughtException", (error) => log("uncaught exception:", error.stack ?? error.message));
process.on("unhandledRejection", (reason) =>
  log("unhandled rejection:", reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)),
);

await serveStdio(server);
log(`tui-tester ${VERSION} ready on stdio`);
