/**
 * Fences on a real PTY: one raised after a program's burst comes back behind all of it, and never
 * reaches the screen or the byte counts; a shell command whose children wrote to pipes and files
 * (the shell's wchar then exceeds what reached the terminal) settles by a fence.
 */
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { finishFrame } from "../../src/session/frame-finish.ts";
import { observe } from "../../src/session/observe.ts";
import { until } from "../helpers.ts";
import { seen, startOptions, testRegistry } from "../registry-helpers.ts";

const linux = process.platform === "linux";
if (!linux) console.warn("skipping the fence tests: fences are written to the PTY's slave found in /proc (Linux)");
const utf8 = new TextEncoder();

test.skipIf(!linux)("a fence comes back behind a whole burst and is cut from the stream", async () => {
  await using registry = testRegistry();
  const dir = mkdtempSync(join(tmpdir(), "fence-"));
  try {
    const done = join(dir, "done");
    // 1 MiB to the terminal (the PTY holds about 68 KiB, so most of it waits on the reader), then a
    // file that says every write has returned, then a read that never ends.
    const script = `import os,sys
for i in range(8192): os.write(1, (b"%07d" % i) + b"x" * 120 + b"\\n")
open(${JSON.stringify(done)}, "w").close()
sys.stdin.read()`;
    const session = await registry.start(startOptions("python3", ["-c", script]));
    await until(() => existsSync(done), "the burst to be written", 20_000);
    // The reader may hold the program's output stopped while the burst is parsed: no fence until it resumes.
    let seq: number | undefined;
    await until(() => (seq = session.fence.raise()) !== undefined, "a fence to be raised", 20_000);
    await until(() => session.fence.passed(seq!), "the fence to come back", 20_000);
    // ONLCR: each line's \n reaches us as \r\n
    expect(session.bytesOut).toBe(8192 * 129);
    const tail = Buffer.from(session.raw.tail(4096)).toString("latin1");
    expect(tail).not.toContain("\x1b[$");
    expect(tail.endsWith(`0008191${"x".repeat(120)}\r\n`)).toBe(true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.skipIf(!linux)("a pipeline from bash settles by a fence, with its output on screen", async () => {
  await using registry = testRegistry();
  const dir = mkdtempSync(join(tmpdir(), "fence-"));
  try {
    const session = await registry.start(
      startOptions("bash", ["--norc", "--noprofile"], { env: { PS1: "$ ", HOME: dir } }),
    );
    await seen(session, { pattern: "$", timeoutMs: 10_000, pollIntervalMs: 10, matchScreen: true });
    const raised: number[] = [];
    const raise = session.fence.raise.bind(session.fence);
    session.fence.raise = () => {
      const seq = raise();
      if (seq !== undefined) raised.push(seq);
      return seq;
    };
    for (let n = 1; n <= 3; n++) {
      // sort and tr write to pipes, seq to a file: bash's wchar takes them all in when it reaps them
      const line = `seq 1 500 > ${dir}/f; printf 'b\\na\\n' | sort | tr a-z A-Z; echo END-$((${n}*1))\r`;
      const observed = await observe(session, () => session.write(utf8.encode(line)), {
        captureScreen: true,
        screenDetail: "full",
      });
      const block = observed.screen!;
      expect({ settledBy: block.settledBy, answered: block.after!.text.includes(`A\nB\nEND-${n}\n$`) }).toEqual({
        settledBy: "idle",
        answered: true,
      });
    }
    expect(raised.length).toBeGreaterThanOrEqual(3);
    // Frame finishing, from before the answer (its byte counters then prove nothing): by a fence too.
    const before = raised.length;
    session.write(utf8.encode(`printf 'd\\nc\\n' | sort; echo FRAME-$((4*1))\r`));
    const frame = await finishFrame(session);
    expect(frame.unfinished).toBe(false);
    expect(raised.length).toBeGreaterThan(before);
    expect(session.emulator.snapshot().text).toContain("c\nd\nFRAME-4\n$");
    expect(Buffer.from(session.raw.tail(8192)).toString("latin1")).not.toContain("\x1b[$");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
