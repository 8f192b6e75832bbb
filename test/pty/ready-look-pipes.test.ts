/**
 * A look judges a read of a pipe by who can write it: another process of the look (a pipeline's
 * writer, a pool's parent) is read and judged on its own, so the read waits on it; a writer outside
 * the look (here, the test itself) could write at any time, so the read stays a pipe wait.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseStat } from "../../src/session/ready/proc.ts";
import { look } from "../../src/session/ready/reading.ts";
import { hostArch } from "../../src/session/ready/syscalls.ts";
import { until } from "../helpers.ts";

const arch = process.platform === "linux" ? hostArch() : null;
if (arch === null) console.warn("skipping the pipe look test: it reads /proc (Linux on x86_64 or aarch64)");

const stat = (pid: number) => parseStat(readFileSync(`/proc/${pid}/stat`, "latin1"))!;
const children = (pid: number) =>
  readFileSync(`/proc/${pid}/task/${pid}/children`, "latin1").trim().split(" ").filter(Boolean).map(Number);
const readWait = (pid: number) => readFileSync(`/proc/${pid}/syscall`, "latin1").startsWith("0 "); // read is 0 on x86_64

test.skipIf(arch === null)("a read of a pipe another process of the look writes waits on that process", async () => {
  const sh = Bun.spawn(["sh", "-c", "sleep 30 | cat; true"], { stdout: "ignore" });
  try {
    await until(() => children(sh.pid).length === 2, "sh to fork the pipeline");
    const byName = () => new Map(children(sh.pid).map((pid) => [stat(pid).comm, pid]));
    await until(() => byName().has("sleep") && byName().has("cat"), "the pipeline to exec");
    const cat = byName().get("cat")!;
    const sleep = byName().get("sleep")!;
    await until(() => stat(cat).state === "S" && (arch !== "x86_64" || readWait(cat)), "cat to read");
    const seen = look(arch!, stat(sh.pid).pgrp, [sh.pid, sleep, cat]);
    expect(seen.threads.find((t) => t.pid === cat)?.activity).toMatchObject({ call: "read", waitKind: "other-thread" });
    // Without the writer in the look, the same read waits on someone unknown.
    const alone = look(arch!, stat(sh.pid).pgrp, [cat]);
    expect(alone.threads.find((t) => t.pid === cat)?.activity).toMatchObject({ call: "read", waitKind: "pipe" });
  } finally {
    for (const pid of children(sh.pid)) process.kill(pid, "SIGKILL");
    sh.kill("SIGKILL");
  }
});

test.skipIf(arch === null)("a read of a pipe only a process outside the look writes stays a pipe wait", async () => {
  const cat = Bun.spawn(["cat"], { stdin: "pipe", stdout: "ignore" });
  try {
    await until(() => stat(cat.pid).state === "S" && (arch !== "x86_64" || readWait(cat.pid)), "cat to read");
    const seen = look(arch!, stat(cat.pid).pgrp, [cat.pid]);
    expect(seen.threads.find((t) => t.pid === cat.pid)?.activity).toMatchObject({ call: "read", waitKind: "pipe" });
  } finally {
    cat.kill("SIGKILL");
  }
});
