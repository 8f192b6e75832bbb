/** Shared test helpers: fixture paths and condition waits. */
import { join } from "node:path";

export const BUN = process.execPath;
export const fixture = (name: string) => join(import.meta.dir, "fixtures", name);

/** Resolve when `predicate` holds, checking every few ms; fail with `what` after `timeoutMs`. */
export async function until(predicate: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!predicate()) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(5);
  }
}

/** True while the process exists and is not a zombie (a dead child not yet reaped counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = require("node:fs").readFileSync(`/proc/${pid}/stat`, "utf8") as string;
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

/**
 * True when `program` is not on PATH, after saying which tests are skipped and why (a skip with no
 * message reads as a pass). For test.skipIf / describe.skipIf.
 */
export function lacks(program: string, tests: string): boolean {
  if (Bun.which(program) !== null) return false;
  console.warn(`skipping ${tests}: ${program} is not installed (on PATH)`);
  return true;
}
