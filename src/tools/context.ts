/**
 * One server's state, built once from its Config and handed to every tool call: the registries, the
 * web viewer and its takeover leases, the output directory and the spilled replies. Nothing of a
 * server lives in a module variable, so two servers in one process (the in-process test harness,
 * the CLI runner) never share sessions, leases or spills.
 */
import type { Config } from "../config.ts";
import { MonitorRegistry } from "../monitor/registry.ts";
import { SessionRegistry } from "../session/registry.ts";
import { OutputDir } from "../util/artifact-path.ts";
import { ViewerManager } from "../viewer/manager.ts";
import { WebViewer } from "../web/server.ts";
import { TakeoverRegistry } from "../web/takeover.ts";
import { Spills } from "./reply-cap.ts";

export interface ServerContext {
  config: Config;
  /** The environment the server runs in, as viewer windows and the browser see it (DISPLAY...). */
  env: Record<string, string | undefined>;
  /** The server's working directory: sessions start there, relative paths are resolved against it. */
  cwd: string;
  sessions: SessionRegistry;
  monitors: MonitorRegistry;
  viewers: ViewerManager;
  /** Who holds which session in the web viewer, and what they typed meanwhile. */
  takeovers: TakeoverRegistry;
  /** The local web viewer; it listens only once a URL is asked for. */
  web: WebViewer;
  output: OutputDir;
  spills: Spills;
  /**
   * The test runner run_tests calls (cli/run-tests.ts). It stands above the catalog (it runs
   * run_script), so whoever builds the server hands it in; without it run_tests says so.
   */
  runTests?: TestRunner;
}

/** What run_tests needs of the runner: a run of test files with a text report. */
export type TestRunner = (
  options: {
    paths?: string[];
    grep?: string;
    update?: boolean;
    repeat?: number;
    shard?: { index: number; total: number };
    timeoutMs?: number;
    signal?: AbortSignal;
    onTestEnd?: (result: { status: string; title: string }, done: number, total: number) => void;
  },
  context: ServerContext,
) => Promise<{
  summary: {
    passed: number;
    failed: number;
    flaky: number;
    skipped: number;
    notRun: number;
    total: number;
    durationMs: number;
  };
  results: { title: string; status: string; durationMs: number; failure?: unknown }[];
  notRun: string[];
  bun?: { failures: { title: string }[]; error?: string; timedOut: boolean };
  report: string;
}>;

export interface OwnedServerContext extends ServerContext {
  /** Stop monitors, close viewers and the web viewer, stop every session. */
  close(): Promise<void>;
}

export interface ContextParts {
  env?: Record<string, string | undefined>;
  cwd?: string;
  viewers?: ViewerManager;
  runTests?: TestRunner;
}

export function createServerContext(config: Config, parts: ContextParts = {}): OwnedServerContext {
  const env = parts.env ?? process.env;
  const sessions = new SessionRegistry(config);
  const monitors = new MonitorRegistry(config.maxMonitors);
  const viewers = parts.viewers ?? new ViewerManager({ env });
  const takeovers = new TakeoverRegistry();
  const web = new WebViewer(sessions, takeovers, config.webPort);
  const output = new OutputDir(config.outputDir);
  return {
    config,
    env,
    cwd: parts.cwd ?? process.cwd(),
    sessions,
    monitors,
    viewers,
    takeovers,
    web,
    output,
    spills: new Spills(output),
    ...(parts.runTests ? { runTests: parts.runTests } : {}),
    async close() {
      monitors.stopAll();
      web.stop();
      await viewers.closeAll().catch(() => undefined);
      await sessions.shutdown().catch(() => undefined);
    },
  };
}
