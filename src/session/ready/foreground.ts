/**
 * Looks at the session's foreground process group for the ready oracle, and knows whether /proc can
 * be read at all for this session (a denied read makes the oracle unavailable from then on).
 */
import type { Session } from "../session.ts";
import { look, scanGroup, terminalOf, type Look } from "./reading.ts";
import { hostArch, type Arch } from "./syscalls.ts";

export class ForegroundLooker {
  /** Why the oracle cannot run for this session, or undefined when it can. */
  unavailable: string | undefined;
  private readonly arch: Arch | null = hostArch();

  constructor(private readonly session: Session) {
    this.unavailable = this.check();
  }

  private check(): string | undefined {
    if (this.session.config.ready === "quiet") return "TUI_TESTER_READY=quiet";
    if (process.platform !== "linux") return `no /proc on ${process.platform}`;
    if (this.arch === null) return `no syscall table for ${process.arch}`;
    try {
      const probe = terminalOf(this.session.pid);
      if (probe === undefined) return "the process is gone";
      look(this.arch, this.session.pid, [this.session.pid]);
      return undefined;
    } catch (error) {
      return `/proc denied (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
  }

  get available(): boolean {
    return this.unavailable === undefined;
  }

  /** A full look at the foreground group (one /proc scan for its members). */
  lookNow(known?: Look): Look | undefined {
    const terminal = terminalOf(this.session.pid);
    if (terminal === undefined) return undefined;
    const tpgid = terminal.tpgid > 0 ? terminal.tpgid : this.session.pid;
    // The members found by the last scan, while the same group has the terminal; else a new scan.
    const pids = known !== undefined && known.tpgid === tpgid ? known.pids : this.members(tpgid, terminal.session);
    const seen = look(this.arch!, tpgid, pids);
    return seen;
  }

  /** The group's processes, from the session's process tree (reading.ts scanGroup). */
  private members(tpgid: number, session: number): number[] {
    return scanGroup(tpgid, session, this.session.pid);
  }

  /** `read()`, or undefined (and the oracle unavailable from now on) when /proc denies it. */
  guarded<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      this.unavailable = `/proc denied (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      return undefined;
    }
  }
}
