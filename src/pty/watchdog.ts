/**
 * Sessions must not outlive the server, even one killed with SIGKILL, which runs no shutdown code.
 * The PTY hang-up then ends each session's process group, but a child that called setsid() (a
 * daemon, `setsid sleep`, a double fork) has left the group and the session: it kept running.
 *
 * So the server marks every process it starts (an environment variable with a token of its own,
 * inherited by their descendants however they detach) and starts a small watchdog: a POSIX shell
 * in a session of its own, reading a pipe from the server. The pipe ends when the server's process
 * does, whatever killed it; the watchdog then finds every process carrying the token
 * (/proc/<pid>/environ) and ends it: SIGHUP and SIGTERM, then SIGKILL to what is still there after
 * half a second. After a normal shutdown it finds only escapees (a double-forked daemon).
 *
 * Linux only (/proc). What still escapes: a process that was started with a cleared environment
 * (`env -i`), or that changed user (its environ is not ours to read). See docs/hardening.md.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { log } from "../util/log.ts";

/** The variable that marks a process as started by this server, directly or not. */
export const OWNER_VARIABLE = "TUI_TESTER_OWNER";

/** $1 is NAME=token. Polls at 50 ms; each round is one grep over /proc. */
const WATCHDOG_SCRIPT = `
trap '' INT HUP
cat >/dev/null 2>&1
marked() { grep -lzxF -- "$1" /proc/[0-9]*/environ 2>/dev/null; }
signal_marked() {
  found=1
  for f in $(marked "$1"); do
    p=\${f#/proc/}; p=\${p%/environ}
    [ "$p" = "$$" ] && continue
    kill "-$2" "$p" 2>/dev/null && found=0
  done
  return $found
}
signal_marked "$1" HUP || exit 0
signal_marked "$1" TERM
i=0
while [ $i -lt 10 ]; do sleep 0.05; signal_marked "$1" 0 || exit 0; i=$((i + 1)); done
i=0
while [ $i -lt 40 ] && signal_marked "$1" KILL; do sleep 0.05; i=$((i + 1)); done
`;

/**
 * Start the watchdog and mark this process's environment, which every child copies. Returns the
 * watchdog's pid, or null where it cannot work (no /proc, no sh), which is logged.
 */
export function startWatchdog(): number | null {
  if (process.platform !== "linux" || !existsSync("/proc/self/environ")) return null;
  const token = `${process.pid}-${crypto.randomUUID()}`;
  try {
    // detached: a session of its own, so a signal to the server's process group or terminal does not end it too.
    // stdout and stderr are not inherited: the client waits for the server's stdout to close.
    const child = spawn("sh", ["-c", WATCHDOG_SCRIPT, "tui-tester-watchdog", `${OWNER_VARIABLE}=${token}`], {
      detached: true,
      stdio: ["pipe", "ignore", "ignore"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", LC_ALL: "C" },
    });
    child.on("error", (error) => log(`watchdog failed: ${error.message}; sessions may outlive a killed server`));
    child.unref();
    const stdin = child.stdin; // a pipe socket, whose unref the Writable type does not declare
    if (stdin && "unref" in stdin && typeof stdin.unref === "function") stdin.unref();
    process.env[OWNER_VARIABLE] = token;
    return child.pid ?? null;
  } catch (error) {
    log(`watchdog not started: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}
