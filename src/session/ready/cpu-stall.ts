/**
 * CPU pressure (Linux PSI, the kernel's Documentation/accounting/psi.rst): the running total, in µs, of
 * the time during which at least one runnable task waited for a CPU ("some"). Over any window a single
 * thread's wait for a CPU is at most that total's growth, so it bounds how late the PTY's reader thread
 * and the tty layer's kernel worker can be with output a program wrote before it went back to rest.
 */
import { readFileSync } from "node:fs";

const PRESSURE = "/proc/pressure/cpu";

let available = process.platform === "linux";

/** The "some" stall total in µs, or undefined where the kernel has no PSI (or it is turned off). */
export function cpuStallUs(): number | undefined {
  if (!available) return undefined;
  try {
    const match = /^some .*total=(\d+)/m.exec(readFileSync(PRESSURE, "latin1"));
    if (match) return Number(match[1]);
  } catch {
    // no PSI: CONFIG_PSI off, psi=0, or /proc not mounted
  }
  available = false;
  return undefined;
}
