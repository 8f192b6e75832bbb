/** Scrollback is bounded in bytes too: a wide terminal keeps fewer lines (MAX_HISTORY_BYTES). */
import { describe, expect, test } from "bun:test";
import { DEFAULT_SCROLLBACK, MAX_HISTORY_BYTES, scrollbackFor } from "../../src/term/scrollback-budget.ts";
import { useEmulators } from "./emulator-harness.ts";

const makeEmulator = useEmulators();

function lines(from: number, count: number): string {
  return Array.from({ length: count }, (_, i) => `line ${from + i}\r\n`).join("");
}

function totalLines(emulator: ReturnType<typeof makeEmulator>["emulator"]): number {
  return emulator.snapshot({ includeScrollback: true }).scrollback!.totalLines;
}

describe("history budget", () => {
  test("up to 279 columns the configured scrollback stands; wider terminals keep what fits in the budget", () => {
    expect(scrollbackFor(DEFAULT_SCROLLBACK, 80)).toBe(DEFAULT_SCROLLBACK);
    expect(scrollbackFor(DEFAULT_SCROLLBACK, 279)).toBe(DEFAULT_SCROLLBACK);
    expect(scrollbackFor(DEFAULT_SCROLLBACK, 280)).toBeLessThan(DEFAULT_SCROLLBACK);
    expect(scrollbackFor(DEFAULT_SCROLLBACK, 1000) * 1000 * 12).toBeLessThanOrEqual(MAX_HISTORY_BYTES);
    expect(scrollbackFor(500, 1000)).toBe(500);
  });

  test("an 80-column terminal keeps its full 10,000 lines", async () => {
    const { emulator, feed } = makeEmulator({ cols: 80, rows: 5 });
    await feed(lines(0, 12_000));
    expect(totalLines(emulator)).toBe(DEFAULT_SCROLLBACK + 5);
    expect(emulator.scrollbackLimit).toBe(DEFAULT_SCROLLBACK);
  });

  test("a 1000-column terminal keeps only the budget's lines, the newest ones", async () => {
    const { emulator, feed } = makeEmulator({ cols: 1000, rows: 5 });
    const limit = scrollbackFor(DEFAULT_SCROLLBACK, 1000);
    await feed(lines(0, 5000));
    expect(totalLines(emulator)).toBe(limit + 5);
    const kept = emulator.snapshot({ includeScrollback: true }).scrollback!.lines;
    expect(kept).toContain("line 4999");
    expect(kept).not.toContain("line 0");
  });

  test("widening trims the history to the budget, narrowing lets it grow back to the configured lines", async () => {
    const { emulator, feed } = makeEmulator({ cols: 80, rows: 5 });
    await feed(lines(0, 12_000));
    emulator.resize(1000, 5);
    expect(emulator.scrollbackLimit).toBe(scrollbackFor(DEFAULT_SCROLLBACK, 1000));
    expect(totalLines(emulator)).toBeLessThanOrEqual(emulator.scrollbackLimit + 5);
    emulator.resize(80, 5);
    expect(emulator.scrollbackLimit).toBe(DEFAULT_SCROLLBACK);
    await feed(lines(20_000, 12_000));
    expect(totalLines(emulator)).toBe(DEFAULT_SCROLLBACK + 5);
  });
});
