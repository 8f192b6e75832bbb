/**
 * A look at the foreground group finds a member whose parent exited (a grandchild left running in
 * the background, re-parented outside the session's tree), a read of a pipe is no input wait, and a
 * child in a process group of its own is read while its parent waits for it. A daemon that left the
 * session's tree is found by the session's mark in its environment.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseStat } from "../../src/util/proc-stat.ts";
import { SESSION_VARIABLE, scanGroup } from "../../src/session/ready/group-members.ts";
import { look } from "../../src/session/ready/reading.ts";
import { hostArch } from "../../src/session/ready/syscalls.ts";
import { until } from "../helpers.ts";

const arch = process.platform === "linux" ? hostArch() : null;
if (arch === null) console.warn("skipping the orphan look test: it reads /proc (Linux on x86_64 or aarch64)");

test.skipIf(arch === null)("an orphaned grandchild of the session is in its group's scan", async () => {
  // setsid: a session of its own, as a PTY's child has; the subshell outlives sh, which exits at once.
  const top = Bun.spawn(["setsid", "sh", "-c", "(sleep 30; true) >/dev/null & echo $!"], { stdout: "pipe" });
  const orphan = Number((await new Response(top.stdout).text()).trim());
  let pgrp = orphan;
  try {
    await top.exited;
    const stat = () => parseStat(readFileSync(`/proc/${orphan}/stat`, "latin1"))!;
    await until(() => stat().ppid !== top.pid, "the subshell to be re-parented");
    const { session } = stat();
    pgrp = stat().pgrp;
    // The session's first process (top) is gone: the scan starts from it and still finds the orphan.
    expect(scanGroup(pgrp, session, top.pid).members).toContain(orphan);
  } finally {
    process.kill(-pgrp, "SIGKILL"); // the subshell and its sleep
  }
});

/** The pid a shell command printed first, and its session and group. */
async function started(command: string, env: Record<string, string> = {}) {
  const top = Bun.spawn(["setsid", "bash", "-c", command], { stdout: "pipe", env: { ...process.env, ...env } });
  const reader = top.stdout.getReader();
  const child = Number(new TextDecoder().decode((await reader.read()).value).trim());
  const stat = (pid: number) => parseStat(readFileSync(`/proc/${pid}/stat`, "latin1"))!;
  return { top, child, ...stat(top.pid) };
}

test.skipIf(arch === null)(
  "a member's child in a session of its own left the group: its work (setsid, heard of by SIGCHLD)",
  async () => {
    const { top, child, pgrp, session } = await started("setsid sleep 30 & echo $!; sleep 30");
    try {
      await until(() => readFileSync(`/proc/${child}/comm`, "latin1").trim() === "sleep", "setsid to exec sleep");
      expect(parseStat(readFileSync(`/proc/${child}/stat`, "latin1"))!.session).not.toBe(session);
      const scan = scanGroup(pgrp, session, top.pid);
      expect(scan.members).toContain(top.pid);
      expect(scan.members).not.toContain(child);
      expect(scan.leftGroup).toEqual([child]);
    } finally {
      process.kill(child, "SIGKILL");
      top.kill("SIGKILL");
    }
  },
);

test.skipIf(arch === null)(
  "a double-forked daemon carrying the session's mark left the session's tree: it is found, an unmarked one is not",
  async () => {
    const mark = `${SESSION_VARIABLE}=orphan-test-${process.pid}`;
    // The first child (a subshell) calls setsid and forks the daemon, then exits: the daemon is
    // re-parented to init (or the nearest subreaper), in a session of its own.
    const daemon = (env: Record<string, string>) => started("(setsid sh -c 'sleep 30 & echo $!' &) ; sleep 30", env);
    const marked = await daemon({ [SESSION_VARIABLE]: mark.split("=")[1]! });
    const unmarked = await daemon({});
    try {
      for (const { top, child } of [marked, unmarked]) {
        const stat = () => parseStat(readFileSync(`/proc/${child}/stat`, "latin1"))!;
        await until(() => !isBelow(child, top.pid), "the daemon to be re-parented");
        expect(stat().session).not.toBe(parseStat(readFileSync(`/proc/${top.pid}/stat`, "latin1"))!.session);
      }
      expect(scanGroup(marked.pgrp, marked.session, marked.top.pid, mark).leftGroup).toEqual([marked.child]);
      expect(scanGroup(unmarked.pgrp, unmarked.session, unmarked.top.pid, mark).leftGroup).toEqual([]);
      expect(scanGroup(marked.pgrp, marked.session, marked.top.pid).leftGroup).toEqual([]); // without a mark to look for
    } finally {
      for (const { top, child } of [marked, unmarked]) {
        process.kill(child, "SIGKILL");
        top.kill("SIGKILL");
      }
    }
  },
);

/** `pid` is `ancestor` or below it, by parent links. */
function isBelow(pid: number, ancestor: number): boolean {
  for (let at = pid; at > 1; ) {
    if (at === ancestor) return true;
    const text = readFileSync(`/proc/${at}/stat`, "latin1");
    at = parseStat(text)!.ppid;
  }
  return false;
}

test.skipIf(arch === null)("a job-control shell's background job did not leave the group as its work", async () => {
  // SIGTSTP ignored, as an interactive shell does (POSIX XCU 2.11); set -m: the job has a group of its own
  const { top, child, pgrp, session } = await started("trap '' TSTP; set -m; sleep 30 & echo $!; wait");
  try {
    await until(() => parseStat(readFileSync(`/proc/${child}/stat`, "latin1"))!.pgrp !== pgrp, "the job's own group");
    const scan = scanGroup(pgrp, session, top.pid);
    expect(scan.members).toEqual([top.pid]);
    expect(scan.leftGroup).toEqual([]);
  } finally {
    process.kill(child, "SIGKILL");
    top.kill("SIGKILL");
  }
});

test.skipIf(arch === null)("a thread blocked reading a pipe waits on its writer (waitKind pipe)", async () => {
  const cat = Bun.spawn(["cat"], { stdin: "pipe", stdout: "ignore" });
  try {
    const stat = () => parseStat(readFileSync(`/proc/${cat.pid}/stat`, "latin1"))!;
    const reading = () =>
      look(arch!, stat().pgrp, [cat.pid]).threads.find((t) => t.activity.kind === "wait" && t.activity.call === "read");
    await until(() => reading() !== undefined, "cat to block in read");
    expect(reading()!.activity).toMatchObject({ kind: "wait", call: "read", waitKind: "pipe" });
  } finally {
    cat.kill("SIGKILL");
  }
});

test.skipIf(arch === null)("a child in a process group of its own is read while its parent waits for it", async () => {
  // set -m: the background job gets a group of its own (job control), and `wait` blocks in wait4.
  const shell = Bun.spawn(["bash", "-c", "set -m; sleep 30 & echo $!; wait"], { stdout: "pipe" });
  const reader = shell.stdout.getReader();
  const sleeper = Number(new TextDecoder().decode((await reader.read()).value).trim());
  try {
    const pgrp = parseStat(readFileSync(`/proc/${shell.pid}/stat`, "latin1"))!.pgrp;
    expect(parseStat(readFileSync(`/proc/${sleeper}/stat`, "latin1"))!.pgrp).not.toBe(pgrp);
    const seen = () => look(arch!, pgrp, [shell.pid]);
    await until(
      () => seen().threads.some((t) => t.activity.kind === "wait" && t.activity.call === "wait4"),
      "bash to wait",
    );
    expect(seen().pids).toEqual([shell.pid, sleeper].sort((a, b) => a - b));
    const sleeping = () => seen().threads.find((t) => t.pid === sleeper)?.activity;
    await until(() => sleeping()?.kind === "wait", "sleep to be asleep");
    expect(sleeping()).toMatchObject({ kind: "wait", call: "clock_nanosleep" });
  } finally {
    process.kill(sleeper, "SIGKILL");
    await shell.exited;
  }
});
