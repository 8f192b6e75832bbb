/**
 * The blocking syscalls the ready oracle recognises, by number, for x86_64 and aarch64 (numbers from
 * arch/x86/entry/syscalls/syscall_64.tbl and include/uapi/asm-generic/unistd.h). aarch64 has no
 * poll, select, epoll_wait, nanosleep-free pause: libc maps those onto ppoll, pselect6, epoll_pwait.
 *
 * `timeout` says where the wait's timeout is: an int of milliseconds in a register (-1 = none), or a
 * pointer to a struct timeval / timespec (NULL = none), or nothing (the wait has no timeout).
 */

/**
 * What a wait is for: input on a file descriptor, the clock, or another thread or process. "pipe" and
 * "signal" are set by the look, not the tables: "pipe" a read or readv of an fd that is no terminal
 * (a pipe, a socket, a signalfd), which ends only when another process writes (one whose writer is
 * another process of the look is "other-thread": group-ends.ts); "signal" a main
 * thread in pause, sigsuspend or sigtimedwait with no child to wait for, which only a signal from a
 * timer or from outside the group ends.
 */
export type WaitKind = "input" | "sleep" | "other-thread" | "pipe" | "signal";

export type TimeoutArg =
  | { type: "none" }
  | { type: "ms"; arg: number }
  | { type: "timeval" | "timespec"; arg: number }
  /** futex: a timespec at `arg`, absolute for some operations (see classify.ts). */
  | { type: "futex"; arg: number };

export interface SyscallInfo {
  name: string;
  kind: WaitKind;
  timeout: TimeoutArg;
}

const none: TimeoutArg = { type: "none" };
const ms = (arg: number): TimeoutArg => ({ type: "ms", arg });
const timeval = (arg: number): TimeoutArg => ({ type: "timeval", arg });
const timespec = (arg: number): TimeoutArg => ({ type: "timespec", arg });

/** The calls themselves, independent of their numbers. */
const CALLS: Record<string, Omit<SyscallInfo, "name">> = {
  read: { kind: "input", timeout: none },
  readv: { kind: "input", timeout: none },
  recvfrom: { kind: "input", timeout: none },
  recvmsg: { kind: "input", timeout: none },
  accept: { kind: "input", timeout: none },
  accept4: { kind: "input", timeout: none },
  poll: { kind: "input", timeout: ms(2) },
  ppoll: { kind: "input", timeout: timespec(2) },
  select: { kind: "input", timeout: timeval(4) },
  pselect6: { kind: "input", timeout: timespec(4) },
  epoll_wait: { kind: "input", timeout: ms(3) },
  epoll_pwait: { kind: "input", timeout: ms(3) },
  epoll_pwait2: { kind: "input", timeout: timespec(3) },
  nanosleep: { kind: "sleep", timeout: timespec(0) },
  clock_nanosleep: { kind: "sleep", timeout: timespec(2) },
  futex: { kind: "other-thread", timeout: { type: "futex", arg: 3 } },
  wait4: { kind: "other-thread", timeout: none },
  waitid: { kind: "other-thread", timeout: none },
  pause: { kind: "other-thread", timeout: none },
  rt_sigsuspend: { kind: "other-thread", timeout: none },
  rt_sigtimedwait: { kind: "other-thread", timeout: timespec(2) },
  // Waits for a ring's completions, the terminal's read among them (rings.ts judges what is in flight).
  io_uring_enter: { kind: "input", timeout: none },
};

export type Arch = "x86_64" | "aarch64";

const NUMBERS: Record<Arch, Record<number, string>> = {
  x86_64: {
    0: "read",
    7: "poll",
    19: "readv",
    23: "select",
    34: "pause",
    35: "nanosleep",
    43: "accept",
    45: "recvfrom",
    47: "recvmsg",
    61: "wait4",
    128: "rt_sigtimedwait",
    130: "rt_sigsuspend",
    202: "futex",
    230: "clock_nanosleep",
    232: "epoll_wait",
    247: "waitid",
    270: "pselect6",
    271: "ppoll",
    281: "epoll_pwait",
    288: "accept4",
    426: "io_uring_enter",
    441: "epoll_pwait2",
  },
  aarch64: {
    22: "epoll_pwait",
    63: "read",
    65: "readv",
    72: "pselect6",
    73: "ppoll",
    95: "waitid",
    98: "futex",
    101: "nanosleep",
    115: "clock_nanosleep",
    133: "rt_sigsuspend",
    137: "rt_sigtimedwait",
    202: "accept",
    207: "recvfrom",
    212: "recvmsg",
    242: "accept4",
    260: "wait4",
    426: "io_uring_enter",
    441: "epoll_pwait2",
  },
};

/** The running machine's table, or null where the oracle has none (then it is not used). */
export function hostArch(): Arch | null {
  if (process.arch === "x64") return "x86_64";
  if (process.arch === "arm64") return "aarch64";
  return null;
}

/** What syscall `nr` is on `arch`; undefined for a call the oracle does not know (judged against the rest only). */
export function syscallInfo(arch: Arch, nr: number): SyscallInfo | undefined {
  const name = NUMBERS[arch][nr];
  if (name === undefined) return undefined;
  return { name, ...CALLS[name]! };
}
