/** Signals to a session's processes, and whether a process still runs. */
import { readFileSync } from "node:fs";

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

/**
 * Whether a process is still running: it exists and is not a zombie. A session's grandchild that
 * died after its parent is re-parented to PID 1 and stays a zombie until PID 1 reaps it, which some
 * inits (a container's, this machine's) do only every second or two; counted as alive, stop_session
 * waited that long for processes that were already dead (bench/README.md, the 32-session regression).
 */
export function processRunning(pid: number): boolean {
  if (!processExists(pid)) return false;
  if (process.platform !== "linux") return true;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 3 is the state; the command name before it may hold spaces and parentheses.
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return false; // gone between the two looks
  }
}
