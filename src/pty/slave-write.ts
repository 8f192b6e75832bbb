/**
 * Writing to a session's PTY slave from the server, as one more writer on the program's terminal
 * (Linux: the slave's path comes from /proc/<pid>/fd). Bytes written there join the program's
 * output in the master's one queue, after everything already written (n_tty_write → pty_write →
 * tty_insert_flip_string_and_push_buffer, under the tty's write lock): output-fence.ts uses it.
 */
import { closeSync, constants, openSync, writeSync } from "node:fs";
import { slavePathOf } from "./tty-flow.ts";

/** The slave of a session's first process, found once; undefined where there is none to find. */
export class SlaveWriter {
  private path: string | undefined;
  private looked = false;

  constructor(private readonly pid: () => number) {}

  /**
   * Write `bytes` whole, without blocking. Returns how many went out: all of them, or fewer when the
   * output is stopped (^S, the server's own flow control) or the queue is full: 0 then, or a torn
   * count when the kernel took part. Undefined when there is no slave to write to.
   */
  write(bytes: Uint8Array): number | undefined {
    if (process.platform !== "linux") return undefined;
    if (!this.looked) {
      const pid = this.pid();
      if (pid <= 0) return undefined;
      this.looked = true;
      this.path = slavePathOf(pid);
    }
    if (this.path === undefined) return undefined;
    let fd: number;
    try {
      // O_NOCTTY: the server must never acquire the session's tty as its controlling terminal.
      fd = openSync(this.path, constants.O_WRONLY | constants.O_NOCTTY | constants.O_NONBLOCK);
    } catch {
      return undefined; // the tty is gone (hung up, closed)
    }
    try {
      return writeSync(fd, bytes);
    } catch {
      return 0; // EAGAIN: output stopped or the queue full
    } finally {
      closeSync(fd); // not kept open: a slave held by the server would delay EOF on the master
    }
  }
}
