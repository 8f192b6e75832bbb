/** A session registry for tests that always cleans up after itself. */
import { DEFAULT_CONFIG } from "../src/config.ts";
import { type RegistryLimits, SessionRegistry, type StartOptions } from "../src/session/registry.ts";
import type { Session } from "../src/session/session.ts";
import { waitForText, type WaitTextOptions, type WaitTextResult } from "../src/session/wait.ts";

/** A registry disposed with `await using`: every session it started is stopped. */
export function testRegistry(overrides: Partial<RegistryLimits> = {}) {
  const registry = new SessionRegistry({ ...DEFAULT_CONFIG, ...overrides });
  return Object.assign(registry, {
    async [Symbol.asyncDispose]() {
      await registry.shutdown(200);
    },
  });
}

export function startOptions(command: string, args: string[] = [], extra: Partial<StartOptions> = {}): StartOptions {
  return { command, args, cols: 80, rows: 24, term: "xterm-256color", ...extra };
}

/** A setup wait that fails loudly: the text must appear (waitForText alone returns matched: false). */
export async function seen(session: Session, options: WaitTextOptions): Promise<WaitTextResult> {
  const result = await waitForText(session, options);
  if (!result.matched)
    throw new Error(
      `"${options.pattern}" did not appear within ${options.timeoutMs} ms; screen:\n${result.snapshot.text}`,
    );
  return result;
}
