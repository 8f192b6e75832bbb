/**
 * /proc/<pid>/stat parsed (proc(5)): the fields the PTY layer (a session's controlling terminal, its
 * process tree) and the ready oracle read. Pure: it takes the file's text.
 */
export interface ProcStat {
  pid: number;
  /** The command name, at most 15 characters (`comm`). */
  comm: string;
  /** R running, S sleeping, D disk sleep, T/t stopped, Z zombie, I idle (kernel), X dead. */
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  /** Its controlling terminal's device number (`tty_nr`), 0 without one. */
  ttyNr: number;
  /** The foreground process group of the process's controlling terminal (-1 without one). */
  tpgid: number;
  /** When it started, in clock ticks since boot (field 22); with its pid, it names one process. */
  startTime?: number;
}

/** /proc/<pid>/stat or /proc/<pid>/task/<tid>/stat. The name may hold spaces and parentheses. */
export function parseStat(text: string): ProcStat | undefined {
  const open = text.indexOf("(");
  const close = text.lastIndexOf(")");
  if (open < 0 || close < open) return undefined;
  const rest = text.slice(close + 2).split(" ");
  const [state, ppid, pgrp, session, ttyNr, tpgid] = rest;
  if (state === undefined || tpgid === undefined) return undefined;
  const startTime = rest[19];
  return {
    pid: Number(text.slice(0, open).trim()),
    comm: text.slice(open + 1, close),
    state,
    ppid: Number(ppid),
    pgrp: Number(pgrp),
    session: Number(session),
    ttyNr: Number(ttyNr),
    tpgid: Number(tpgid),
    ...(startTime !== undefined ? { startTime: Number(startTime) } : {}),
  };
}
