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
