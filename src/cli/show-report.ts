/** `tui-tester show-report [DIR] [--port N]`: serve an html report on 127.0.0.1 until interrupted. */
import { parseArgs } from "node:util";
import { serveReport } from "../report/serve.ts";

export const SHOW_REPORT_HELP = `Usage: tui-tester show-report [DIR] [--port N]

Serves the report that "tui-tester test --reporter html" wrote (DIR, default tui-tester-report)
on 127.0.0.1 and prints its URL. Stop it with Ctrl-C.
`;

/** Starts the server; returns what to print and a way to stop, or an exit code and message for bad input. */
export function showReport(argv: string[]): { stdout: string; stop?: () => void; code?: number } {
  let values: { port?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: { port: { type: "string" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (error) {
    process.stderr.write(
      `tui-tester show-report: ${error instanceof Error ? error.message : String(error)}\n${SHOW_REPORT_HELP}`,
    );
    return { stdout: "", code: 2 };
  }
  if (values.help) return { stdout: SHOW_REPORT_HELP, code: 0 };
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535 || positionals.length > 1) {
    process.stderr.write(`tui-tester show-report: takes one directory and --port 0..65535.\n${SHOW_REPORT_HELP}`);
    return { stdout: "", code: 2 };
  }
  try {
    const { url, server } = serveReport(positionals[0] ?? "tui-tester-report", port);
    process.stderr.write("Serving the report; press Ctrl-C to stop.\n");
    return { stdout: `${url}\n`, stop: () => void server.stop(true) };
  } catch (error) {
    process.stderr.write(`tui-tester show-report: ${error instanceof Error ? error.message : String(error)}\n`);
    return { stdout: "", code: 1 };
  }
}
