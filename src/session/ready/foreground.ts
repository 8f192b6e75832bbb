/**
 * Looks at the session's foreground process group for the ready oracle, and knows whether /proc can
 * be read at all for this session (a denied read makes the oracle unavailable from then on).
 */
import type { Session } from "../session.ts";
import { SESSION_VARIABLE, scanGroup, terminalOf } from "./group-members.ts";
import { look, type Look } from "./reading.ts";
import { hostArch, type Arch } from "./syscalls.ts";

export class ForegroundLooker {
  private readonly arch: Arch | null = hostArch();
  /** Why the oracle can never run here (settings, platform), fixed at construction. */
  private readonly never: string | undefined;
  /** A /proc read was denied: the oracle is off for this session from then on. */
  private denied: string | undefined;
  /** The probe has succeeded once. */
  private probed = false;
  /** Processes outside the group that were there at the last input (see markInput). */
  private leftBefore = new Set<number>();
  /** The last scan's processes that left the group since the last input: judged with it. */
  private leftSince: number[] = [];
  private lastLeft: number[] = [];

  constructor(private readonly session: Session) {
    this.never = this.staticReason();
  }

  /**
   * Why the oracle cannot run for this session, or undefined when it can. The /proc probe is retried
   * until it succeeds once: the oracle is made as the session starts, and a process still being
   * spawned (before its exec) may not be readable yet.
   */
  get unavailable(): string | undefined {
    if (this.never !== undefined || this.denied !== undefined) return this.never ?? this.denied;
    if (this.probed) return undefined;
    const failed = this.probe();
    if (failed === undefined) this.probed = true;
    return failed;
  }

  private staticReason(): string | undefined {
    if (this.session.config.ready === "quiet") return "TUI_TESTER_READY=quiet";
    if (process.platform !== "linux") return `no /proc on ${process.platform}`;
    if (this.arch === null) return `no syscall table for ${process.arch}`;
    return undefined;
  }

  private probe(): string | undefined {
    try {
      const probe = terminalOf(this.session.pid);
      if (probe === undefined) return "the process is gone";
      look(this.arch!, this.session.pid, [this.session.pid]);
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
    return look(this.arch!, tpgid, pids, this.leftSince);
  }

  /**
   * An input is about to be written: the processes outside the group now are not its work, but for
   * the foreground of a terminal nested in ours (scanGroup's nestedForeground). Those that leave the
   * group after it (a child started with setsid, whose parent hears of its end by SIGCHLD) are judged
   * with the group until the next input.
   */
  markInput(): void {
    this.leftBefore = new Set(this.lastLeft);
    this.leftSince = [];
  }

  /** The group's processes, from the session's process tree (group-members.ts scanGroup). */
  private members(tpgid: number, session: number): number[] {
    const scan = scanGroup(tpgid, session, this.session.pid, `${SESSION_VARIABLE}=${this.session.id}`);
    this.lastLeft = scan.leftGroup;
    // The foreground of a terminal nested in ours answers the input the relay passes on: always judged.
    this.leftSince = scan.leftGroup.filter((pid) => !this.leftBefore.has(pid) || scan.nestedForeground.includes(pid));
    return scan.members;
  }

  /** `read()`, or undefined (and the oracle unavailable from now on) when /proc denies it. */
  guarded<T>(read: () => T): T | undefined {
    try {
      return read();
    } catch (error) {
      this.denied = `/proc denied (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      return undefined;
    }
  }
}
