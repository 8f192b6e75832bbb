/**
 * What several benches share: the environment a spawned child inherits, CPU hogs to load the machine,
 * percentiles, and the engine-level steps of the ready benches (a registry, a session started and
 * shown ready, one key pressed and its screen block).
 */
import { cpus } from "node:os";
import { DEFAULT_CONFIG } from "../src/config.ts";
import { observe, type ScreenBlock } from "../src/session/observe.ts";
import { SessionRegistry } from "../src/session/registry.ts";
import type { Session } from "../src/session/session.ts";
import { waitForText } from "../src/session/wait.ts";

const utf8 = new TextEncoder();

/** This process's environment as plain strings (a child's env takes no undefined), with `extra` on top. */
export function processEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ...extra };
}

/** `count` spinning child processes (one per core by default): the load a bench runs beside. Returns the stop. */
export function startCpuHogs(count = cpus().length): () => void {
  const hogs = Array.from({ length: count }, () =>
    Bun.spawn(["sh", "-c", "while :; do :; done"], { stdin: "ignore", stdout: "ignore", stderr: "ignore" }),
  );
  return () => {
    for (const hog of hogs) hog.kill("SIGKILL");
  };
}

/** The value at fraction `p` of the sorted values (the lower of two for an even median); NaN when empty. */
export const percentile = (xs: number[], p: number): number =>
  xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;

export const median = (xs: number[]): number => percentile(xs, 0.5);

/** Counts as one table cell: "idle 3, quiet 1". */
export const countsText = (counts: Record<string, number>): string =>
  Object.entries(counts)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");

/** A session registry with the default settings, settling by the ready oracle or by the quiet window only. */
export const benchRegistry = (ready: "auto" | "quiet" = "auto"): SessionRegistry =>
  new SessionRegistry({ ...DEFAULT_CONFIG, ready });

export interface BenchProgram {
  command: string;
  args: string[];
  env?: Record<string, string>;
  /** Text on the screen once the program is ready for its first input. */
  ready: string;
}

/** Start a program in an xterm-256color terminal (80x24 unless told). */
export function startProgram(
  registry: SessionRegistry,
  program: Omit<BenchProgram, "ready">,
  size: { cols: number; rows: number } = { cols: 80, rows: 24 },
): Promise<Session> {
  return registry.start({
    command: program.command,
    args: program.args,
    cols: size.cols,
    rows: size.rows,
    term: "xterm-256color",
    env: program.env,
  });
}

/** Wait until `ready` shows on the screen (10 s, polled every 50 ms, unless told). */
export async function waitReady(
  session: Session,
  ready: string,
  options: { timeoutMs?: number; pollIntervalMs?: number } = {},
): Promise<void> {
  await waitForText(session, {
    pattern: ready,
    timeoutMs: options.timeoutMs ?? 10_000,
    pollIntervalMs: options.pollIntervalMs ?? 50,
    matchScreen: true,
  });
}

/** Type `keys` as one input and return its screen block: how it settled, and the whole screen after it. */
export async function press(session: Session, keys: string): Promise<ScreenBlock> {
  const observed = await observe(session, () => session.write(utf8.encode(keys)), {
    captureScreen: true,
    screenDetail: "full",
  });
  return observed.screen!;
}
