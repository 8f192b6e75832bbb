/**
 * start_session { clock }: the session's wall clock set through libfaketime (Debian/Ubuntu package
 * "faketime"), which the dynamic loader preloads into every process of the session.
 *
 * - "2026-01-01T00:00:00Z": frozen; every process reads that instant, forever (FAKETIME "<epoch>").
 * - "@2026-01-01T00:00:00Z" (libfaketime's own "start at" mark): the clock starts there when the
 *   session starts and runs on (FAKETIME "+<s>"
 *   as an offset from the real time, so processes started later agree with the first one).
 * CLOCK_MONOTONIC stays real (FAKETIME_DONT_FAKE_MONOTONIC), so timeouts and frame timers still run.
 *
 * Programs that do not load the C library dynamically ignore it: statically linked binaries and Go
 * programs (which read the clock through the vDSO or raw syscalls), and anything that clears
 * LD_PRELOAD. macOS needs DYLD_INSERT_LIBRARIES and SIP-free binaries; it is not supported here.
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { TuiError } from "../errors.ts";

const SEARCH_DIRS = ["/usr/lib", "/usr/local/lib", "/usr/lib64", "/lib"];

let found: string | null | undefined;

/** The libfaketime.so.1 on this machine, or null. */
export function findLibfaketime(): string | null {
  if (found !== undefined) return found;
  found = null;
  for (const dir of SEARCH_DIRS) {
    const candidates = [join(dir, "faketime"), ...subdirs(dir).map((sub) => join(dir, sub, "faketime"))];
    const hit = candidates.map((d) => join(d, "libfaketime.so.1")).find((file) => existsSync(file));
    if (hit) return (found = hit);
  }
  return found;
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name.includes("-linux-"))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

/** The environment entries that set the clock, or an error saying how to get libfaketime. */
export function fakeClockEnv(
  clock: string,
  inherited: string | undefined,
  now = Date.now(),
  lib = findLibfaketime(),
): Record<string, string> {
  const freeze = !clock.startsWith("@");
  const instant = freeze ? clock : clock.slice(1);
  const at = Date.parse(instant);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(instant) || Number.isNaN(at)) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `clock "${clock.slice(0, 60)}" is not an ISO 8601 date-time.`,
      'Example: "2026-01-01T00:00:00Z" (frozen), or "@2026-01-01T00:00:00Z" to let it tick from there.',
    );
  }
  if (process.platform !== "linux") {
    throw new TuiError(
      "UNSUPPORTED",
      "clock needs libfaketime, which tui-tester supports on Linux only.",
      "Leave clock out, and mask the clock in goldens (expect_snapshot mask) instead.",
    );
  }
  if (lib === null) {
    throw new TuiError(
      "FAKETIME_MISSING",
      "clock needs libfaketime (libfaketime.so.1), and it is not installed.",
      "Install it (Debian/Ubuntu: apt-get install faketime; it is looked for under /usr/lib/*/faketime/).",
    );
  }
  const seconds = Math.floor(at / 1000);
  const offset = Math.round((at - now) / 1000);
  return {
    LD_PRELOAD: inherited ? `${lib}:${inherited}` : lib,
    FAKETIME: freeze ? `${seconds}` : `${offset >= 0 ? "+" : ""}${offset}s`,
    ...(freeze ? { FAKETIME_FMT: "%s" } : {}),
    FAKETIME_DONT_FAKE_MONOTONIC: "1",
    FAKETIME_NO_CACHE: "1",
  };
}
