/** A session registry for tests that always cleans up after itself. */
import { limitsFromEnv, SessionRegistry, type StartOptions } from "../src/session/registry.ts";

/** A registry disposed with `await using`: every session it started is stopped. */
export function testRegistry(overrides: Partial<ReturnType<typeof limitsFromEnv>> = {}) {
  const registry = new SessionRegistry({ ...limitsFromEnv({}), ...overrides });
  return Object.assign(registry, {
    async [Symbol.asyncDispose]() {
      await registry.shutdown(200);
    },
  });
}

export function startOptions(command: string, args: string[] = [], extra: Partial<StartOptions> = {}): StartOptions {
  return { command, args, cols: 80, rows: 24, term: "xterm-256color", ...extra };
}

