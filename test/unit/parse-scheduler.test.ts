/** The shared parse scheduler: floods take turns with gaps, a quiet session's output goes first. */
import { expect, test } from "bun:test";
import { leaveParsing, parsingThrottled, queueForParsing, type Parseable } from "../../src/term/parse-scheduler.ts";
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

test("floods whose every slice outlasts a turn (a loaded machine) still count as several: the quiet session goes first", async () => {
  const log: string[] = [];
  // 8 ms a slice against a 6 ms turn: each turn parses one flood slice, as on a busy machine
  const floods = ["A", "B", "C"].map((name) => fakeEmulator(name, log, Number.POSITIVE_INFINITY, 8));
  for (const flood of floods) queueForParsing(flood, 1 << 20);
  try {
    await until(() => log.length >= 6, "the floods to take a few turns");
    expect(parsingThrottled()).toBe(true);
    const quiet = fakeEmulator("Q", log, 1);
    const at = log.length;
    queueForParsing(quiet, 100);
    await until(() => log.includes("Q"), "the quiet session's output to be parsed");
    expect(log.slice(at, log.indexOf("Q"))).toEqual([]);
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

test("32 sessions answering at once are not throttled like floods: turns follow without gaps", async () => {
  // Each has one short chunk, but together they take longer than one turn; each slice notes whether
  // turns were being spaced out when it ran.
  const seen: boolean[] = [];
  // An earlier test's floods leave one spaced turn pending; it ends the throttling when it runs.
  await until(() => !parsingThrottled(), "the earlier floods' spacing to end");
  const quiet = Array.from({ length: 32 }, () => {
    let left = 1;
    return {
      get left() {
        return left;
      },
      parseSlice() {
        const end = performance.now() + 0.5;
        while (performance.now() < end) {
          // parsing
        }
        seen.push(parsingThrottled());
        return --left > 0;
      },
    };
  });
  for (const emulator of quiet) queueForParsing(emulator, 100);
  await until(() => quiet.every((q) => q.left === 0), "every queue to be parsed");
  expect(seen).toHaveLength(32);
  expect(seen.filter(Boolean)).toEqual([]);
  // Two floods are spaced out.
  const log: string[] = [];
  const floods = ["A", "B"].map((name) => fakeEmulator(name, log, Number.POSITIVE_INFINITY, 4));
  for (const flood of floods) queueForParsing(flood, 1 << 20);
  try {
    await until(() => parsingThrottled(), "the floods to be spaced out");
  } finally {
    for (const flood of floods) leaveParsing(flood);
  }
});
