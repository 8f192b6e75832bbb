/**
 * Output floods against the engine: the PTY is read only as fast as the emulator parses, so the
 * parser backlog stays bounded, nothing is dropped, END arrives, and sessions stay stoppable.
 */
import { describe, expect, test } from "bun:test";
import { useBlockingReaders } from "../../src/pty/bun-terminal.ts";
import { HIGH_WATER } from "../../src/pty/flow.ts";
import { waitForText } from "../../src/session/wait.ts";
import { Emulator } from "../../src/term/emulator.ts";
import { MAX_PENDING_BYTES } from "../../src/term/parse-queue.ts";
import { processAlive, until } from "../helpers.ts";
import { seen, startOptions, testRegistry } from "../registry-helpers.ts";

const waitOpts = { timeoutMs: 20_000, pollIntervalMs: 50, matchScreen: true };
/**
 * The most a reader can be ahead: on bun-terminal the mark plus the chunk that crossed it (Bun reads
 * up to ~128 KiB at once); bun-pty cannot hold its child back (src/pty/bun-pty.ts), so there the bound
 * is the emulator's queue limit, and bytes past it are dropped and counted.
 */
const BACKLOG_BOUND: Record<string, number> = { "bun-terminal": HIGH_WATER + 512 * 1024, "bun-pty": MAX_PENDING_BYTES };

/** bun-terminal holds a child back at its tty where it can (Linux: one shared reader), else by blocking a reader of its own. */
const READERS = { "bun-terminal": false, "bun-terminal, blocking readers": true, "bun-pty": false } as const;

describe.each(Object.keys(READERS) as (keyof typeof READERS)[])("flow control on %s", (variant) => {
  const backend = variant.startsWith("bun-terminal") ? "bun-terminal" : "bun-pty";
  const bound = BACKLOG_BOUND[backend]!;
  const backpressure = backend === "bun-terminal";
  const withBackend = async <T>(fn: () => Promise<T>): Promise<T> => {
    const saved = process.env.TUI_TESTER_PTY;
    process.env.TUI_TESTER_PTY = backend;
    useBlockingReaders(READERS[variant]);
    try {
      return await fn();
    } finally {
      useBlockingReaders(false);
      if (saved === undefined) delete process.env.TUI_TESTER_PTY;
      else process.env.TUI_TESTER_PTY = saved;
    }
  };

  test("binary output far faster than parsing: backlog bounded, nothing dropped (with backpressure), END on screen, answers after", async () => {
    await withBackend(async () => {
      await using registry = testRegistry();
      const size = backend === "bun-pty" ? 4_000_000 : 12_000_000; // bun-pty's reads are slower (src/pty/bun-pty.ts)
      const session = await registry.start(
        startOptions("bash", ["-c", `head -c ${size} /dev/urandom; printf '\\033c'; echo END`]),
      );
      let maxBacklog = 0;
      const off = session.emulator.onParsed(() => (maxBacklog = Math.max(maxBacklog, session.emulator.pendingBytes)));
      const exit = await session.whenExited();
      off();
      expect(exit.exitCode).toBe(0);
      expect(maxBacklog).toBeLessThanOrEqual(bound);
      if (backpressure) expect(session.droppedBytes).toBe(0);
      else expect(session.droppedBytes).toBeLessThan(size);
      expect(session.emulator.text()).toContain("END");
      expect(session.bytesOut).toBeGreaterThanOrEqual(size);
      expect((await registry.stop(session.id)).alreadyExited).toBe(true);
    });
  }, 120_000);

  test("a flooding `yes` is held back (bun-terminal) or bounded (bun-pty), other sessions answer, and it stops on request", async () => {
    await withBackend(async () => {
      await using registry = testRegistry({ killGraceMs: 2000 });
      // bun-pty drains a deep native backlog slowly (see src/pty/bun-pty.ts), so it gets one flood, not three.
      const count = backend === "bun-pty" ? 1 : 3;
      const floods = await Promise.all(
        Array.from({ length: count }, () => registry.start(startOptions("yes", ["flood"]))),
      );
      let maxBacklog = 0;
      for (const s of floods) s.emulator.onParsed(() => (maxBacklog = Math.max(maxBacklog, s.emulator.pendingBytes)));
      await until(
        () => floods.every((s) => s.bytesOut > 3 * HIGH_WATER),
        "each flood to pass the high-water mark several times",
        20_000,
      );
      const shell = await registry.start(
        startOptions("bash", ["--norc", "--noprofile", "-i"], { env: { PS1: "PROMPT$ " } }),
      );
      await seen(shell, { ...waitOpts, pattern: "PROMPT$" });
      shell.write(new TextEncoder().encode("echo $((6*7))\r"));
      expect((await waitForText(shell, { ...waitOpts, pattern: "^42$", regex: true, regexFlags: "m" })).matched).toBe(
        true,
      );
      if (backpressure) expect(floods.every((s) => s.droppedBytes === 0)).toBe(true);
      for (const s of floods) {
        const stopped = await registry.stop(s.id);
        expect(stopped.exit.signal).not.toBeNull();
        expect(processAlive(s.pid)).toBe(false);
        // Stopping a flood hangs it up rather than parsing its backlog first; only that backlog is lost.
        if (backpressure) expect(s.droppedBytes).toBeLessThanOrEqual(bound);
      }
      expect(maxBacklog).toBeLessThanOrEqual(bound);
    });
  }, 120_000);
});

describe("emulator write limits", () => {
  test("writes past MAX_PENDING_BYTES are dropped and counted, never queued for xterm.js to throw away; flushed() still resolves", async () => {
    const emulator = new Emulator({ cols: 80, rows: 24, reply: () => undefined });
    const chunk = new Uint8Array(1 << 20).fill(0x61);
    // 60 MiB without waiting: xterm.js alone would throw "write data discarded" past 50 MB.
    for (let i = 0; i < 60; i++) expect(() => emulator.write(chunk)).not.toThrow();
    expect(emulator.pendingBytes).toBeLessThanOrEqual(MAX_PENDING_BYTES);
    expect(emulator.droppedBytes).toBe(60 * chunk.length - emulator.pendingBytes);
    await emulator.flushed();
    expect(emulator.pendingBytes).toBe(0);
    emulator.write("\x1b[2J\x1b[HEND");
    await emulator.flushed();
    expect(emulator.text()).toStartWith("END");
    emulator.dispose();
  }, 60_000);

  test("every write's completion callback runs, parsed or dropped (flow control is always released)", async () => {
    const emulator = new Emulator({ cols: 80, rows: 24, reply: () => undefined });
    const chunk = new Uint8Array(1 << 20).fill(0x62);
    let done = 0;
    for (let i = 0; i < 12; i++) emulator.write(chunk, () => done++);
    await emulator.flushed();
    expect(done).toBe(12);
    emulator.dispose();
    emulator.write(chunk, () => done++);
    expect(done).toBe(13);
  }, 60_000);
});
