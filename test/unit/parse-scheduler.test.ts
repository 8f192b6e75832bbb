/** The shared parse scheduler: floods take turns with gaps, a quiet session's output goes first. */
import { expect, test } from "bun:test";
import { leaveParsing, queueForParsing, type Parseable } from "../../src/term/parse-scheduler.ts";
import { until } from "../helpers.ts";

/** A stand-in emulator: each slice costs `sliceMs` of CPU and is logged; it has `slices` of output queued. */
function fakeEmulator(name: string, log: string[], slices: number, sliceMs = 0): Parseable & { left: number } {
  return {
    left: slices,
    parseSlice() {
      const end = performance.now() + sliceMs;
      while (performance.now() < end) {
        // parsing
      }
      log.push(name);
      return --this.left > 0;
    },
  };
}

test("with several floods busy, a quiet session's short output is parsed before the floods' next slice", async () => {
  const log: string[] = [];
  const floods = ["A", "B", "C"].map((name) => fakeEmulator(name, log, Number.POSITIVE_INFINITY, 3));
  for (const flood of floods) queueForParsing(flood, 1 << 20);
  try {
    await until(() => log.length >= 6, "the floods to take a few turns");
    const quiet = fakeEmulator("Q", log, 1);
    const at = log.length;
    queueForParsing(quiet, 100);
    await until(() => log.includes("Q"), "the quiet session's output to be parsed");
    expect(log.slice(at, log.indexOf("Q"))).toEqual([]); // no flood slice in between
  } finally {
    for (const flood of floods) leaveParsing(flood);
  }
});

test("every queued byte is parsed: floods with a quiet session in between all finish", async () => {
  const log: string[] = [];
  const a = fakeEmulator("A", log, 20, 1);
  const b = fakeEmulator("B", log, 20, 1);
  queueForParsing(a, 20 << 15);
  queueForParsing(b, 20 << 15);
  const quiet = fakeEmulator("Q", log, 1);
  queueForParsing(quiet, 10);
  await until(() => a.left === 0 && b.left === 0 && quiet.left === 0, "every queue to be parsed");
  expect(log.filter((n) => n === "A").length).toBe(20);
  expect(log.filter((n) => n === "Q").length).toBe(1);
});

test("a quiet session whose express slice leaves bytes queued is parsed to the end (no queue is stranded)", async () => {
  const log: string[] = [];
  const floods = ["A", "B"].map((name) => fakeEmulator(name, log, 6, 2));
  for (const flood of floods) queueForParsing(flood, 6 << 15);
  try {
    await until(() => log.length >= 3, "the floods to be throttled");
    // announced as a short queue (express lane), but more arrived behind it: three slices in all
    const quiet = fakeEmulator("Q", log, 3);
    queueForParsing(quiet, 100);
    await until(() => quiet.left === 0, "the quiet session's whole queue to be parsed", 5000);
    expect(log.filter((n) => n === "Q").length).toBe(3);
  } finally {
    for (const flood of floods) leaveParsing(flood);
  }
});
