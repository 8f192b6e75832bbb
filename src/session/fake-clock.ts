/**
 * start_session { clock }: the session's wall clock set through libfaketime (Debian/Ubuntu package
 * "faketime"), which the dynamic loader preloads into every process of the session.
 *
 * - frozen (the default): every process reads the same instant, forever (FAKETIME "<epoch>").
 * - ticking: the clock starts at the instant when the session starts and runs on (FAKETIME "+<s>"
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

/** The libfaketime.so.1 on this machine (`given`, the TUI_TESTER_FAKETIME_LIB setting, wins), or null. */
export function findLibfaketime(given?: string): string | null {
  if (given) return existsSync(given) ? given : null;
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
    return readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() && e.name.includes("-linux-")).map((e) => e.name);
  } catch {
    return [];
  }
}

/** The environment entries that set the clock, or an error saying how to get libfaketime. */
export function fakeClockEnv(clock: string, freeze: boolean, inherited: string | undefined, libPath?: string, now = Date.now()): Record<string, string> {
  const at = Date.parse(clock);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(clock) || Number.isNaN(at)) {
    throw new TuiError("INVALID_ARGUMENT", `clock "${clock.slice(0, 60)}" is not an ISO 8601 date-time.`, 'Example: "2026-01-01T00:00:00Z".');
  }
  if (process.platform !== "linux") {
    throw new TuiError("UNSUPPORTED", "clock needs libfaketime, which tui-tester supports on Linux only.", "Leave clock out, and mask the clock in goldens (expect_snapshot mask) instead.");
  }
  const lib = findLibfaketime(libPath);
  if (lib === null) {
    throw new TuiError("FAKETIME_MISSING", "clock needs libfaketime (libfaketime.so.1), and it is not installed.", "Install it (Debian/Ubuntu: apt-get install faketime), or set TUI_TESTER_FAKETIME_LIB to its path.");
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
