/**
 * Signal timers no wait shows (session/ready/signal-timers.ts, hidden-timer-watch.ts) and a main
 * thread waiting only for a signal (classify.ts judge). Recorded /proc samples from Linux 6.18, x86_64.
 */
import { describe, expect, test } from "bun:test";
import { judge, restOf, type ThreadActivity } from "../../src/session/ready/classify.ts";
import { HIDDEN_TIMER_WATCH_MS, HiddenTimerWatch } from "../../src/session/ready/hidden-timer-watch.ts";
import type { Look, ThreadLook } from "../../src/session/ready/reading.ts";
import { catchesAlarmIn, jobControlShellIn, signalTimerSourceIn } from "../../src/session/ready/signal-timers.ts";

/** vim 9: one SIGEV_THREAD timer (glibc's helper thread takes signal 32). */
const VIM_TIMERS = "ID: 0\nsignal: 32/0000557cd966f880\nnotify: signal/tid.26538\nClockID: 1\n";
const status = (blocked: string, caught = "0000000000000000") =>
  `Name:\tapp\nSigQ:\t0/94528\nSigPnd:\t0000000000000000\nShdPnd:\t0000000000000000\nSigBlk:\t${blocked}\nSigIgn:\t0000000000000000\nSigCgt:\t${caught}\n`;

describe("where a timer signal could go unseen", () => {
  test("a POSIX timer, SIGEV_THREAD included", () => {
    expect(signalTimerSourceIn(VIM_TIMERS, undefined)).toBe("a POSIX timer");
  });

  test("SIGALRM or a real-time signal blocked in the main thread: routed to a signalfd or sigwait", () => {
    // c-signalfd: SIGALRM (bit 13) and SIGRTMIN (34: bit 33) blocked
    expect(signalTimerSourceIn("", status("0000000200002000"))).toBe("signal 14 blocked for a signalfd or sigwait");
    expect(signalTimerSourceIn(undefined, status("0000000200000000"))).toBe(
      "signal 34 blocked for a signalfd or sigwait",
    );
  });

  test("a handler for SIGALRM (python's signal.setitimer, perl's $SIG{ALRM})", () => {
    expect(signalTimerSourceIn("", status("0000000000000000", "0000000000002002"))).toBe("a handler for signal 14");
  });

  test("a handler in a job-control shell (SIGTSTP ignored: TMOUT), or in a program catching nearly all: none", () => {
    // bash: SIGALRM caught among 18, SIGTSTP, SIGTTIN and SIGTTOU ignored
    const bash = status("0000000000000000", "000000004b813efb").replace(/SigIgn:.*/, "SigIgn:\t0000000000384004");
    expect(signalTimerSourceIn("", bash)).toBeUndefined();
    // fish ignores SIGTSTP and SIGTTOU only
    const fish = status("0000000000000000", "0000000108116003").replace(/SigIgn:.*/, "SigIgn:\t0000000000281004");
    expect(signalTimerSourceIn("", fish)).toBeUndefined();
    // top, and Go's runtime: every signal caught
    expect(signalTimerSourceIn("", status("0000000000000000", "fffffffe7ffafeff"))).toBeUndefined();
  });

  // fresh-f go-itimer (Go 1.24): every signal caught; signal.Notify(SIGALRM, SIGHUP, SIGTERM) made the
  // main thread Go's signal-mask thread, which blocks what nobody listens to (SIGALRM open, SIGVTALRM shut)
  const GO_CAUGHT = "fffffffd7fc1feff";
  const GO_MASK_ALRM_OPEN = "fffffffc3bba1a00";
  const GO_MASK_ALRM_SHUT = "fffffffc3bba3a00";
  const goStatus = (blocked: string) => status(blocked, GO_CAUGHT).replace(/SigIgn:.*/, "SigIgn:\t0000000000300000");

  test("Go: a timer signal that its signal-mask thread leaves open is listened to (signal.Notify)", () => {
    const threads = () => [goStatus("0000000000000000"), goStatus(GO_MASK_ALRM_OPEN)];
    expect(signalTimerSourceIn("", goStatus("0000000000000000"), threads)).toBe(
      "signal 14 listened to (its signal-mask thread leaves it open)",
    );
  });

  test("Go: a mask thread that shuts the timer signals, or none at all: none (not routed to a sigwait)", () => {
    // go-idle: Notify(SIGWINCH, SIGTSTP); its mask thread is the main thread, and SIGVTALRM blocked there is unwanted
    const main = goStatus(GO_MASK_ALRM_SHUT);
    expect(signalTimerSourceIn("", main, () => [main, goStatus("0000000000000000")])).toBeUndefined();
    // no signal.Notify: no mask thread, nothing blocked
    const plain = goStatus("0000000000000000");
    expect(signalTimerSourceIn("", plain, () => [plain, plain])).toBeUndefined();
  });

  test("blocked non-timer signals, or nothing: none", () => {
    // SIGINT and SIGCHLD blocked (a sigwait thread for those)
    expect(signalTimerSourceIn("", status("0000000000010002"))).toBeUndefined();
    // glibc's own 32 and 33 blocked (its SIGEV_THREAD helper, cancellation)
    expect(signalTimerSourceIn("", status("0000000180000000"))).toBeUndefined();
    expect(signalTimerSourceIn(undefined, undefined)).toBeUndefined();
  });
});

describe("a SIGALRM handler: an alarm it set shows nowhere", () => {
  const exe = (path: string) => () => path;
  test("caught by python's signal.signal, perl's $SIG{ALRM}, php's pcntl_signal", () => {
    expect(catchesAlarmIn(status("0000000000000000", "0000000000002002"), exe("/usr/bin/python3.11"))).toBe(true);
  });

  test("not SIGVTALRM or SIGPROF alone: they count CPU time, which a resting program does not use", () => {
    // php-cli: HUP INT QUIT USR1 USR2 TERM PROF (its max_execution_time)
    expect(catchesAlarmIn(status("0000000000000000", "0000000004004a07"), exe("/usr/bin/php8.2"))).toBe(false);
  });

  test("not ruby (it catches SIGALRM for every program), a job-control shell, or a catch-all program", () => {
    // ruby 3.1: HUP INT QUIT ILL BUS USR1 SEGV USR2 PIPE ALRM TERM CHLD VTALRM SYS
    const ruby = status("0000000000000000", "0000000042017e4f");
    expect(catchesAlarmIn(ruby, exe("/usr/bin/ruby3.1"))).toBe(false);
    expect(catchesAlarmIn(ruby, exe("/usr/bin/python3"))).toBe(true);
    const bash = status("0000000000000000", "000000004b813efb").replace(/SigIgn:.*/, "SigIgn:\t0000000000384004");
    expect(catchesAlarmIn(bash, exe("/usr/bin/bash"))).toBe(false);
    expect(catchesAlarmIn(status("0000000000000000", "fffffffe7ffafeff"), exe("/usr/bin/top"))).toBe(false);
  });
});

const PID = 100;
const wait = (call: string, nr: number, waitKind: "input" | "signal", timed = false): ThreadActivity => ({
  kind: "wait",
  call,
  nr,
  waitKind,
  timed,
  ...(timed ? { timeoutMs: 4000 } : {}),
});
const thread = (activity: ThreadActivity, tid = PID): ThreadLook => ({ pid: PID, tid, command: "app", activity });
const look = (...threads: ThreadLook[]): Look => ({
  at: 0,
  tpgid: PID,
  leader: "app",
  pids: [PID],
  threads,
  io: new Map(),
  unread: 0,
});

describe("a main thread waiting only for a signal", () => {
  const pause = wait("pause", 34, "signal");

  test("is busy where it did not rest so (ualarm, then pause: a timer no wait shows)", () => {
    const readRest = restOf(wait("read", 0, "input"), undefined, false);
    expect(judge(pause, readRest, true)).toEqual({ rest: false, state: "sleeping", call: "pause" });
    expect(judge(pause, undefined, true)).toEqual({ rest: false, state: "sleeping", call: "pause" });
  });

  test("rests where it rested so (a wrapper in sigsuspend from its start)", () => {
    const rest = restOf(pause, undefined, true);
    expect(rest).toMatchObject({ nr: 34, timed: false, signal: true });
    expect(judge(pause, rest, true)).toEqual({ rest: true, waitsForInput: false, timed: false });
    // a read is not that rest
    expect(restOf(wait("read", 0, "input"), rest, false)).not.toHaveProperty("signal");
  });
});

describe("the first settle's watch for a wake no wait explains", () => {
  const reading = look(thread(wait("read", 0, "input")));
  const withTimer = look(thread(wait("select", 23, "input", true)));

  test("a program with a signal timer, at rest with no timed wait, is watched once", () => {
    const watch = new HiddenTimerWatch();
    const asked: number[] = [];
    const source = (pid: number) => (asked.push(pid), "a POSIX timer");
    expect(watch.watchMs(reading, source)).toBe(HIDDEN_TIMER_WATCH_MS);
    expect(watch.watchMs(reading, source)).toBe(HIDDEN_TIMER_WATCH_MS); // the same watch, asked again
    expect(asked).toEqual([PID]);
    watch.ended(false);
    expect(watch.watchMs(reading, source)).toBe(0);
    expect(watch.woke).toBe(false);
  });

  test("a wake during the watch is remembered for the session", () => {
    const watch = new HiddenTimerWatch();
    watch.watchMs(reading, () => "a POSIX timer");
    watch.ended(true);
    expect(watch.woke).toBe(true);
    expect(watch.watchMs(reading, () => "a POSIX timer")).toBe(0);
  });

  test("a timed wait far off (Go's sysmon parks 60 s) or with more than the watch left explains no wake", () => {
    const futex = (timeoutMs: number, absolute?: true): ThreadActivity => ({
      kind: "wait",
      call: "futex",
      nr: 202,
      waitKind: "other-thread",
      timed: true,
      timeoutMs,
      ...(absolute ? { absolute } : {}),
    });
    const sysmon = look(thread(wait("read", 0, "input")), thread(futex(60_000), PID + 1));
    expect(new HiddenTimerWatch().watchMs(sysmon, () => "a POSIX timer")).toBe(HIDDEN_TIMER_WATCH_MS);
    const left = (timeoutMs: number): Look => look(thread(futex(timeoutMs, true)));
    expect(new HiddenTimerWatch().watchMs(left(HIDDEN_TIMER_WATCH_MS + 100), () => "a POSIX timer")).toBe(
      HIDDEN_TIMER_WATCH_MS,
    );
    expect(new HiddenTimerWatch().watchMs(left(HIDDEN_TIMER_WATCH_MS - 100), () => "a POSIX timer")).toBe(0);
    // a relative 4 s wait may have begun long ago: it may end within the watch
    expect(new HiddenTimerWatch().watchMs(withTimer, () => "a POSIX timer")).toBe(0);
  });

  test("a timed wait whose deadline is known (perl's select clock) does not hold the watch back: its own wake can be told", () => {
    const clock: ThreadActivity = { ...wait("select", 23, "input", true), deadline: 5000 } as ThreadActivity;
    expect(new HiddenTimerWatch().watchMs(look(thread(clock)), () => "a handler for signal 14")).toBe(
      HIDDEN_TIMER_WATCH_MS,
    );
  });

  test("a timed wait explains a wake: no watch yet, and a later look may start it", () => {
    const watch = new HiddenTimerWatch();
    expect(watch.watchMs(withTimer, () => "a POSIX timer")).toBe(0);
    expect(watch.watchMs(reading, () => "a POSIX timer")).toBe(HIDDEN_TIMER_WATCH_MS);
  });

  test("a main thread resting in pause() is watched without reading /proc", () => {
    const watch = new HiddenTimerWatch();
    expect(watch.watchMs(look(thread(wait("pause", 34, "signal"))), () => undefined)).toBe(HIDDEN_TIMER_WATCH_MS);
  });

  test("no signal timer: never watched, and /proc is not read again", () => {
    const watch = new HiddenTimerWatch();
    let reads = 0;
    const none = () => void reads++;
    expect(watch.watchMs(reading, none)).toBe(0);
    expect(watch.watchMs(reading, none)).toBe(0);
    expect(reads).toBe(1);
  });
});

describe("a job-control shell's helper threads", () => {
  // fish's fd monitor: a helper thread in poll(256 ms), marked by the look (reading.ts)
  const monitor: ThreadActivity = {
    kind: "wait",
    call: "poll",
    nr: 7,
    waitKind: "input",
    timed: true,
    timeoutMs: 256,
    shellHelper: true,
  };

  test("rest in their timed waits, and are no rest later waits are held to", () => {
    expect(judge(monitor, undefined, false)).toEqual({ rest: true, waitsForInput: false, timed: false });
    expect(restOf(monitor, undefined, false)).toBeUndefined();
  });

  test("a shell is told by SIGTSTP ignored; a program is not", () => {
    expect(jobControlShellIn(status("0", "0").replace(/SigIgn:.*/, "SigIgn:\t0000000000281004"))).toBe(true);
    expect(jobControlShellIn(status("0", "0").replace(/SigIgn:.*/, "SigIgn:\t0000000001301000"))).toBe(false);
  });
});
