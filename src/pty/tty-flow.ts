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
import { closeSync, constants, existsSync, openSync, readFileSync, readlinkSync } from "node:fs";
import { loadLibc } from "../util/libc.ts";
import { parseStat } from "../util/proc-stat.ts";

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
  const flow = (path: string, action: number): boolean =>
    withTerminal(path, (fd) => libc.tcflow(fd, action) === 0) ?? false;
  return { pause: (path) => flow(path, TCOOFF), resume: (path) => flow(path, TCOON) };
}

/**
 * `use` on a descriptor of the terminal at `path`, opened for the call only; undefined when it cannot
 * be opened (gone, hung up).
 */
export function withTerminal<T>(path: string, use: (fd: number) => T): T | undefined {
  let fd: number;
  try {
    // O_NOCTTY: the server must never acquire a session's tty as its controlling terminal.
    fd = openSync(path, constants.O_RDWR | constants.O_NOCTTY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    return use(fd);
  } finally {
    closeSync(fd); // not kept open: a slave held by the server would delay EOF on the master
  }
}

let loaded: { flow: TtyFlow | undefined } | undefined;
/** The tty flow control of this platform (loaded on first use), or undefined where there is none. */
export function ttyFlow(): TtyFlow | undefined {
  return (loaded ??= { flow: build() }).flow;
}

/**
 * The PTY slave of a freshly spawned child (Linux), or undefined: its controlling terminal (`tty_nr`
 * in /proc/<pid>/stat), else the first of its stdio that is a pts. Not stdio alone: tcsh moves the
 * terminal to fds 15-19 and points 0-2 at /dev/null.
 */
export function slavePathOf(pid: number): string | undefined {
  const controlling = controllingPts(pid);
  if (controlling !== undefined) return controlling;
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

/** The Unix98 pty slaves' majors (Documentation/admin-guide/devices.txt: 136-143). */
const PTS_MAJORS = [136, 143];

/** /dev/pts/<n> of `pid`'s controlling terminal, from its device number, when it is a pts that exists. */
function controllingPts(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  const ttyNr = parseStat(stat)?.ttyNr;
  if (ttyNr === undefined || !Number.isInteger(ttyNr) || ttyNr <= 0) return undefined;
  // new_encode_dev: minor's low byte, then the major's 12 bits, then the minor's upper bits
  const major = (ttyNr >> 8) & 0xfff;
  const minor = (ttyNr & 0xff) | ((ttyNr >> 12) & 0xfff00);
  if (major < PTS_MAJORS[0]! || major > PTS_MAJORS[1]!) return undefined;
  const path = `/dev/pts/${(major - PTS_MAJORS[0]!) * 256 + minor}`;
  return existsSync(path) ? path : undefined;
}
