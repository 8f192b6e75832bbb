/**
 * A look at the foreground group reads the children of a process blocked in wait4 even when the
 * group's listing missed them (a pipeline forked just after it): a shell waiting on a child it cannot
 * show is not at rest.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseStat } from "../../src/util/proc-stat.ts";
import { look } from "../../src/session/ready/reading.ts";
import { hostArch } from "../../src/session/ready/syscalls.ts";
import { until } from "../helpers.ts";

const arch = process.platform === "linux" ? hostArch() : null;
if (arch === null) console.warn("skipping the look test: it reads /proc (Linux on x86_64 or aarch64)");

test.skipIf(arch === null)("a process in wait4 brings its unlisted child into the look", async () => {
  // `; true` keeps sh from exec'ing sleep: it forks it and waits.
  const sh = Bun.spawn(["sh", "-c", "sleep 30; true"], { stdout: "ignore" });
  let sleepPid = 0;
  try {
    const stat = () => parseStat(readFileSync(`/proc/${sh.pid}/stat`, "latin1"))!;
    const children = () => readFileSync(`/proc/${sh.pid}/task/${sh.pid}/children`, "latin1").trim();
    await until(() => children() !== "" && stat().state === "S", "sh to fork sleep and wait");
    sleepPid = Number(children());
    const sleepStat = () => parseStat(readFileSync(`/proc/${sleepPid}/stat`, "latin1"))!;
    await until(() => sleepStat().comm === "sleep" && sleepStat().state === "S", "sleep to be asleep");
    // only sh listed, as a listing taken just before the fork would have it
    const lookAtSh = () => look(arch!, stat().pgrp, [sh.pid]);
    const inWait4 = () => lookAtSh().threads.some((t) => t.pid === sh.pid && t.activity.kind === "wait");
    await until(inWait4, "sh to wait for its child");
    const seen = lookAtSh();
    expect(seen.pids).toEqual([sh.pid, sleepPid].sort((a, b) => a - b));
    const sleeping = seen.threads.find((t) => t.pid === sleepPid);
    expect(sleeping?.activity).toMatchObject({ kind: "wait", call: expect.stringContaining("nanosleep") });
    expect(seen.threads.find((t) => t.pid === sh.pid)?.activity).toMatchObject({ kind: "wait", call: "wait4" });
  } finally {
    if (sleepPid > 0) process.kill(sleepPid, "SIGKILL"); // not left behind by its shell
    sh.kill("SIGKILL");
  }
});
