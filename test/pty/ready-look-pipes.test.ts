/**
 * A look judges a read of a pipe or a unix socket by who holds its other end: another process of the
 * look (a pipeline's writer, a pool's parent, a socketpair's other process) is read and judged on its
 * own, so the read waits on it, as on the reader's own threads; a writer outside the look (here, the
 * test itself) could write at any time, and so could a signal handler of a reader with a signal timer
 * no wait shows, so those reads stay pipe waits.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { parseStat } from "../../src/util/proc-stat.ts";
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

/**
 * A python program whose `reader` reads one end of a socketpair (os.read: the read syscall) and prints
 * its pid; with `alarm`, it catches SIGALRM (a handler could feed the socket under a timer no wait shows).
 */
const socketPair = (reader: "child" | "thread", alarm: boolean) => `
import os, signal, socket, sys, threading, time
if ${alarm ? "True" : "False"}:
    signal.signal(signal.SIGALRM, lambda *_: None)
a, b = socket.socketpair()
if "${reader}" == "child":
    pid = os.fork()
    if pid == 0:
        b.close(); os.read(a.fileno(), 1); os._exit(0)
    a.close()
else:
    threading.Thread(target=os.read, args=(a.fileno(), 1), daemon=True).start()
    pid = os.getpid()
print(pid, flush=True)
time.sleep(30)
`;

for (const [reader, alarm, expected, holder] of [
  ["child", false, "other-thread", "another process"],
  ["thread", false, "other-thread", "its own process (written by its threads)"],
  ["thread", true, "pipe", "its own process, which catches SIGALRM (a handler may write it)"],
] as const)
  test.skipIf(arch === null || Bun.which("python3") === null)(
    `a read of a unix socket whose peer ${holder} holds: ${expected}`,
    async () => {
      const python = Bun.spawn(["python3", "-c", socketPair(reader, alarm)], { stdout: "pipe" });
      try {
        const reading = Number(new TextDecoder().decode((await python.stdout.getReader().read()).value).trim());
        const pids = [...new Set([python.pid, reading])];
        const readOf = () =>
          look(arch!, stat(python.pid).pgrp, pids).threads.find(
            (t) => t.pid === reading && t.activity.kind === "wait" && t.activity.call === "read",
          );
        await until(() => readOf() !== undefined, "the reader to read");
        expect(readOf()?.activity).toMatchObject({ waitKind: expected });
      } finally {
        python.kill("SIGKILL"); // a forked reader then reads the end of its socket and exits
      }
    },
  );

/**
 * A python parent holding `fillers` descriptors of /dev/null below its pipe's write end, and a forked
 * child reading the pipe (it closes all but the read end); prints the child's pid.
 */
const writerBehind = (fillers: number) => `
import os, resource, time
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, ${fillers} + 64)), hard))
r, w = os.pipe()
held = [os.open("/dev/null", os.O_RDONLY) for _ in range(${fillers})]
high = os.dup(w)
os.close(w)
pid = os.fork()
if pid == 0:
    os.close(high)
    for fd in held: os.close(fd)
    os.read(r, 1); os._exit(0)
print(pid, flush=True)
time.sleep(30)
`;

for (const [fillers, expected] of [
  [10, "other-thread"],
  [1100, "pipe"],
] as const)
  test.skipIf(arch === null || Bun.which("python3") === null)(
    `a pipe's writer holding it ${fillers === 10 ? "among its first descriptors" : "past its first 1,024 descriptors"}: ${expected}`,
    async () => {
      // Past the bound a read stays a pipe wait: busy until the cap, never wrongly at rest.
      const python = Bun.spawn(["python3", "-c", writerBehind(fillers)], { stdout: "pipe", stderr: "pipe" });
      try {
        const line = new TextDecoder().decode((await python.stdout.getReader().read()).value).trim();
        if (line === "") throw new Error(`the python parent failed: ${await new Response(python.stderr).text()}`);
        const reading = Number(line);
        const readOf = () =>
          look(arch!, stat(python.pid).pgrp, [python.pid, reading]).threads.find(
            (t) => t.pid === reading && t.activity.kind === "wait" && t.activity.call === "read",
          );
        await until(() => readOf() !== undefined, "the reader to read");
        expect(readOf()?.activity).toMatchObject({ waitKind: expected });
      } finally {
        python.kill("SIGKILL");
      }
    },
  );
