/**
 * Output flow control at the tty, as a terminal's XOFF/XON does, without sending a byte: tcflow(3)
 * with TCOOFF on the PTY's slave stops the line discipline's output, so the child's write(2) blocks;
 * TCOON restarts it (POSIX termios; Linux tty_ioctl TCXONC → stop_tty/start_tty). Unlike ^S it does
 * not depend on IXON and never reaches a raw-mode app as a keystroke.
 *
 * With this a reader thread never has to block to hold a child back, so one thread can read every
 * session. Linux only for now: the slave's path comes from /proc/<pid>/fd, and TCOOFF/TCOON have
 * Linux's values. Elsewhere `ttyFlow()` is undefined and each session gets a reader that blocks.
 */
import { FFIType } from "bun:ffi";
import { closeSync, constants, openSync, readlinkSync } from "node:fs";
import { loadLibc } from "../util/libc.ts";

/** <termios.h> on Linux (glibc and musl). */
const TCOOFF = 0;
const TCOON = 1;

export interface TtyFlow {
  /** Stop the child's output on the slave at `path`; false if the tty is gone. */
  pause(path: string): boolean;
  /** Restart it; false if the tty is gone. */
  resume(path: string): boolean;
}

function build(): TtyFlow | undefined {
  const libc = loadLibc({ tcflow: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
  if (libc === undefined) return undefined;
  const flow = (path: string, action: number): boolean => {
    let fd: number;
    try {
      // O_NOCTTY: the server must never acquire the session's tty as its controlling terminal.
      fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
    } catch {
      return false;
    }
    try {
      return libc.tcflow(fd, action) === 0;
    } finally {
      closeSync(fd); // not kept open: a slave held by the server would delay EOF on the master
    }
  };
  return { pause: (path) => flow(path, TCOOFF), resume: (path) => flow(path, TCOON) };
}

let loaded: { flow: TtyFlow | undefined } | undefined;
/** The tty flow control of this platform (loaded on first use), or undefined where there is none. */
export function ttyFlow(): TtyFlow | undefined {
  return (loaded ??= { flow: build() }).flow;
}

/** The PTY slave a freshly spawned child has as its stdio (Linux), or undefined. */
export function slavePathOf(pid: number): string | undefined {
  for (const fd of [0, 1, 2]) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (target.startsWith("/dev/pts/")) return target;
    } catch {
      // gone or not ours
    }
  }
  return undefined;
}
