/** Synchronized output (DEC mode 2026): consumers see complete frames, never half-drawn ones. */
import { describe, expect, test } from "bun:test";
import { useEmulators } from "./emulator-harness.ts";
import { until } from "../helpers.ts";

const newEmulator = useEmulators();
const makeEmulator = () => newEmulator({ cols: 20, rows: 3 });

describe("settledSnapshot", () => {
  test("without a hold it is the current screen", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("frame 0");
    expect((await emulator.settledSnapshot()).lines[0]).toBe("frame 0");
  });

  test("waits for CSI ? 2026 l and returns the completed frame", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("frame 0");
    await feed("\x1b[?2026h\x1b[H\x1b[2Jframe 1, top");
    expect(emulator.syncHeld).toBe(true);
    let settled = false;
    const pending = emulator.settledSnapshot({ format: "all" }, 5000).then((s) => {
      settled = true;
      return s;
    });
    await Bun.sleep(20);
    expect(settled).toBe(false);
    // The frame ends and, in the same write, the next one starts to be drawn.
    await feed("\r\nframe 1, bottom\x1b[?2026l\x1b[?2026h\x1b[H\x1b[2Jframe 2 partial");
    const snap = await pending;
    expect(snap.lines).toEqual(["frame 1, top", "frame 1, bottom", ""]);
    expect(snap.ansi).toContain("frame 1, bottom");
    expect(snap.cells!.rows[1]![0]!.text).toStartWith("f");
    expect(emulator.text()).toStartWith("frame 2 partial");
  });

  test("gives up after maxHoldMs and returns what is there", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[?2026hhalf");
    const started = performance.now();
    const snap = await emulator.settledSnapshot({}, 60);
    const waited = performance.now() - started;
    expect(snap.lines[0]).toBe("half");
    expect(waited).toBeGreaterThanOrEqual(50);
    expect(waited).toBeLessThan(1000);
  });

  test("a hold already older than maxHoldMs does not wait at all", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[?2026hstuck");
    await Bun.sleep(30);
    const started = performance.now();
    await emulator.settledSnapshot({}, 10);
    expect(performance.now() - started).toBeLessThan(10);
  });

  test("flushes what was written before it first", async () => {
    const { emulator } = makeEmulator();
    emulator.write("late bytes");
    expect((await emulator.settledSnapshot()).lines[0]).toBe("late bytes");
  });

  test("dispose releases a waiting settledSnapshot", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[?2026hx");
    // A hold far past any test timeout: only dispose() can end this wait (a 10 s hold used to end by itself).
    let settled = false;
    const pending = emulator.settledSnapshot({}, 600_000).then((snap) => {
      settled = true;
      return snap;
    });
    await until(() => emulator.syncHeldSince !== null, "the synchronized update to be held");
    await Promise.resolve();
    expect(settled).toBe(false);
    emulator.dispose();
    expect((await pending).lines[0]).toBe("x");
  });
});

describe("hold bookkeeping", () => {
  test("syncHeldSince keeps the start of the hold across a repeated begin", async () => {
    const { emulator, feed } = makeEmulator();
    await feed("\x1b[?2026h");
    const since = emulator.syncHeldSince!;
    expect(since).toBeLessThanOrEqual(performance.now());
    await Bun.sleep(5);
    await feed("\x1b[?2026h");
    expect(emulator.syncHeldSince).toBe(since);
  });

  test("onSyncRelease fires inside the parser at the end of the frame", async () => {
    const { emulator, feed } = makeEmulator();
    const seen: string[] = [];
    const off = emulator.onSyncRelease(() => seen.push(emulator.text().split("\n")[0]!));
    await feed("\x1b[?2026hdone\x1b[?2026l\x1b[Hnext");
    expect(seen).toEqual(["done"]);
    off();
    await feed("\x1b[?2026h\x1b[?2026l");
    expect(seen).toHaveLength(1);
  });

  test("an end without a begin is not a release", async () => {
    const { emulator, feed } = makeEmulator();
    let released = 0;
    emulator.onSyncRelease(() => released++);
    await feed("\x1b[?2026l");
    expect(released).toBe(0);
  });

  test("agrees with xterm.js's own mode state (as DECRQM reports it)", async () => {
    const { emulator, feed, replies } = makeEmulator();
    await feed("\x1b[?1;2026h\x1b[?2026$p");
    expect(emulator.modes()).toMatchObject({ synchronizedOutput: true, applicationCursorKeys: true });
    await feed("\x1b[?1;2026l\x1b[?2026$p");
    expect(emulator.modes()).toMatchObject({ synchronizedOutput: false, applicationCursorKeys: false });
    expect(replies).toEqual(["\x1b[?2026;1$y", "\x1b[?2026;2$y"]);
  });
});
