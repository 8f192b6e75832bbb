/**
 * A PTY child is a session leader (setsid), so its process group id equals its pid.
 * Signalling the group also reaches the job it is running in the foreground (`sleep` under bash),
 * which signalling the pid alone would orphan. Falls back to the pid where groups do not apply.
 */
export function deliverSignal(pid: number, signal: NodeJS.Signals): boolean {
  if (process.platform !== "win32") {
    try {
      process.kill(-pid, signal);
      return true;
    } catch {
      // not a group leader (or already gone): try the process itself
    }
  }
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Whether a process with this pid exists (a zombie not yet reaped counts). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
