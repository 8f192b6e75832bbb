/**
 * The ready oracle's settle loop (session/ready/settle.ts) to the millisecond, on fake timers, with a
 * fake session, foreground group and rest model: when it ends, how it says so, and how often it looks.
 */
import { expect, test } from "bun:test";
import type { Baseline, Busy } from "../../src/session/ready/outcome.ts";
import { procCost } from "../../src/session/ready/proc.ts";
import type { Look } from "../../src/session/ready/reading.ts";
import { NO_RESPONSE_MS, type SettleParts, settle } from "../../src/session/ready/settle.ts";
import { advance, flush, track, useFakeTime } from "./fake-time.ts";

const PID = 100;
const RUNNING: Busy = { pid: 101, command: "cc1", state: "running" };

useFakeTime(() => {
  // Counters from earlier settles: the outcome reports only this settle's share.
  procCost.reads = 500;
  procCost.ms = 77;
});

/** A look at the group: `io` is pid -> [rchar, wchar]; its processes are the keys. */
function look(io: Record<number, [number, number]> = { [PID]: [0, 0] }, tpgid = PID): Look {
  const counters = Object.entries(io).map(([pid, [rchar, wchar]]) => [Number(pid), { rchar, wchar }] as const);
  return {
    at: 0,
    tpgid,
    leader: "app",
    pids: counters.map(([pid]) => pid),
    threads: [],
    io: new Map(counters),
    unread: 0,
  };
}

const baseline = (seen = look(), bytesOut = 0): Baseline => ({ look: seen, bytesOut, lastOutputAt: 0, echoedAt: 0 });

/** Each look costs 2 reads and 0.123 ms: what a settle of `looks` looks reports. */
const cost = (looks: number) => ({ procReads: 2 * looks, procMs: Math.round(0.123 * looks * 100) / 100 });

/** The oracle's parts, driven by hand: `next` is what the next look sees. */
function rig() {
  const exited = Promise.withResolvers<void>();
  const log: string[] = [];
  const looks: { at: number; known: Look | undefined; seen: Look | undefined }[] = [];
  const calls = {
    busyPids: [] as number[],
    learnt: [] as [Look, number][],
    rested: [] as [Look, Look | undefined][],
    remembered: [] as [Look, boolean][],
    /** What each hidden-timer watch ended with (true: the program woke). */
    watchEnded: [] as boolean[],
  };
  const state = {
    next: look() as Look | undefined,
    busy: undefined as Busy | undefined,
    timedRest: false,
    periodic: false,
    /** The short tick the program rests on (rest-model.ts shortTick), when it does. */
    tick: undefined as { tickMs: number; wake: string } | undefined,
    /** A long tick's wake-up due soon (rest-model.ts nearWake). */
    nearWake: undefined as { tickMs: number; wake: string } | undefined,
    /** How long the program at rest is watched for a wake no wait explains (hiddenWatchMs). */
    watchMs: 0,
    since: 0,
    onLook: () => {},
    onFlush: () => {},
    /** Fences can be raised (output-fence.ts); `raised` of them were, the first `fencePassed` came back. */
    fences: false,
    raised: 0,
    fencePassed: 0,
    fenceLost: false,
    /** Bytes the terminal may have echoed for the input (echo-budget.ts). */
    echoed: 0,
  };
  const session = {
    running: true,
    pid: PID,
    bytesOut: 0,
    lastOutputAt: -1e9,
    whenExited: () => exited.promise,
    emulator: { flushed: async () => void (log.push("flush"), state.onFlush()) },
    // No fence can be raised unless a test says so (fenceRaised / fencePassed).
    fence: {
      raise: () => (state.fences ? (log.push("fence"), ++state.raised) : undefined),
      passed: (seq: number) => state.fencePassed >= seq,
      coming: (seq: number) => state.fencePassed < seq && !state.fenceLost,
    },
  };
  const group = {
    available: true,
    guarded: <T>(read: () => T) => read(),
    lookNow(known?: Look) {
      state.onLook();
      procCost.reads += 2;
      procCost.ms += 0.123;
      looks.push({ at: performance.now() - state.since, known, seen: state.next });
      return state.next;
    },
  };
  const rests = {
    restGroup: PID as number | undefined,
    stopWatching: () => void log.push("stopWatching"),
    noteQuietWaits: () => void log.push("note"),
    notePhase: () => {},
    busyIn: (_seen: Look, pid: number) => (calls.busyPids.push(pid), state.busy),
    busyThreads: (seen: Look) =>
      state.busy === undefined
        ? []
        : seen.threads.map((thread) => ({ thread, verdict: { rest: false, state: state.busy!.state } })),
    restsOnTimer: () => state.timedRest,
    learnLongWaits: (seen: Look, capMs: number) => void calls.learnt.push([seen, capMs]),
    remember: (seen: Look, startup: boolean) => void (log.push("remember"), calls.remembered.push([seen, startup])),
  };
  const parts = {
    session,
    group,
    rests,
    atRest: (seen: Look, base: Look | undefined) => {
      calls.rested.push([seen, base]);
      if (state.tick !== undefined) return { settledBy: "unsure", tickMs: state.tick.tickMs };
      return { settledBy: state.periodic ? "periodic" : "idle" };
    },
    shortTick: () => state.tick,
    nearWake: () => state.nearWake,
    hiddenWatchMs: () => state.watchMs,
    hiddenWatchEnded: (woke: boolean) => void calls.watchEnded.push(woke),
    echoedSince: () => state.echoed,
  } as unknown as SettleParts;
  /** Start a settle whose input was `ago` ms before now. */
  const start = (base: Baseline | undefined, capMs = 1000, ago = 0, signal?: AbortSignal) => {
    state.since = performance.now() - ago;
    return track(settle(parts, base, state.since, capMs, signal));
  };
  return { session, group, rests, state, log, looks, calls, exited, start, at: () => looks.map((l) => l.at) };
}

test("a program that read its input is idle once two looks 1 ms apart see it at rest, its output drained", async () => {
  const { state, log, looks, calls, start } = rig();
  const before = baseline();
  state.next = look({ [PID]: [5, 0] }); // it read the key
  const settled = start(before);
  await flush();
  expect(settled.done).toBe(false);
  await advance(1);
  expect(settled.value).toStrictEqual({ settledBy: "idle", program: "app", procReads: 4, procMs: 0.25 });
  expect(log).toEqual(["stopWatching", "note", "note", "flush"]);
  // the first look reuses the baseline's members; at rest every look scans the group again
  expect(looks.map((l) => l.known)).toEqual([before.look, undefined]);
  expect(calls.busyPids).toEqual([PID, PID]);
  expect(calls.rested).toEqual([[state.next, before.look]]);
});

test("a rest on a periodic redraw settles as periodic", async () => {
  const { state, start } = rig();
  state.next = look({ [PID]: [5, 0] });
  state.periodic = true;
  const settled = start(baseline());
  await advance(1);
  expect(settled.value).toStrictEqual({ settledBy: "periodic", program: "app", ...cost(2) });
});

test("a rest on a short tick waits for the tick's next wake-up, then says it cannot tell (unsure)", async () => {
  const { state, start } = rig();
  state.next = look({ [PID]: [5, 0] });
  state.tick = { tickMs: 100, wake: "7@1000" };
  const settled = start(baseline());
  await advance(1);
  await advance(1);
  await advance(40);
  expect(settled.done).toBe(false); // still before the tick's wake-up
  state.tick = { tickMs: 100, wake: "7@1100" }; // it woke and waits again, on its grid
  await advance(4);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "unsure", tickMs: 100, program: "app" });
});

test("a long tick's wake-up due soon is waited for, and the settle then says idle", async () => {
  const { state, start } = rig();
  state.next = look({ [PID]: [5, 0] });
  state.nearWake = { tickMs: 29, wake: "7@1000" }; // bun, 29 ms before its 1 s tick
  const settled = start(baseline());
  await advance(1);
  await advance(20);
  expect(settled.done).toBe(false);
  state.nearWake = undefined; // woke, and waits a whole period again
  await advance(4);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("a hold for a tick's wake-up lasts at most the tick and 30 ms", async () => {
  const { state, start } = rig();
  state.next = look({ [PID]: [5, 0] });
  state.tick = { tickMs: 100, wake: "7@1000" }; // a deadline that never changes
  const settled = start(baseline());
  await advance(1);
  await advance(128);
  expect(settled.done).toBe(false);
  for (let i = 0; i < 4 && !settled.done; i++) await advance(4);
  expect(settled.value).toMatchObject({ settledBy: "unsure", tickMs: 100 });
  expect(performance.now() - state.since).toBeLessThanOrEqual(140);
});

test("a program with a signal timer no wait shows is watched at rest until the watch ends, then idle", async () => {
  const { state, session, calls, start } = rig();
  state.next = look({ [PID]: [5, 0] }); // it read the key
  state.watchMs = 500;
  const settled = start(baseline());
  await advance(3);
  expect(settled.done).toBe(false); // at rest and drained: the 2 ms settle is held
  session.bytesOut = 0;
  await advance(480);
  expect(settled.done).toBe(false);
  for (let i = 0; i < 4 && !settled.done; i++) await advance(10);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
  expect(performance.now() - state.since).toBeGreaterThanOrEqual(500);
  expect(performance.now() - state.since).toBeLessThanOrEqual(515);
  expect(calls.watchEnded).toEqual([false]);
});

test("a program that writes while it is watched at rest woke on something no wait shows; the settle goes on", async () => {
  const { state, session, calls, start } = rig();
  state.next = look({ [PID]: [5, 0] });
  state.watchMs = 500;
  const settled = start(baseline());
  await advance(50);
  expect(settled.done).toBe(false);
  // A signal timer fires: the answer is written and arrives.
  state.next = look({ [PID]: [5, 7] });
  session.bytesOut = 7;
  state.watchMs = 0; // the oracle's watch is done once it has ended
  // Once back at rest with the output in, no timed wait is seen to have ended: the wake is unexplained.
  for (let i = 0; i < 40 && !settled.done; i++) await advance(1);
  expect(calls.watchEnded).toEqual([true]);
  expect(settled.value).toMatchObject({ settledBy: "idle" }); // the rig's atRest; the oracle says unsure
  expect(performance.now() - state.since).toBeLessThan(100);
});

/** A look where the main thread is in select(timeoutMs) that went to sleep at `sleptAt` (scheduler's clock). */
const selectLook = (io: Record<number, [number, number]>, sleptAt: number, timeoutMs = 1000): Look => ({
  ...look(io),
  threads: [
    {
      pid: PID,
      tid: PID,
      command: "app",
      activity: {
        kind: "wait",
        call: "select",
        nr: 23,
        waitKind: "input",
        timed: true,
        timeoutMs,
        deadline: sleptAt + timeoutMs,
      },
    },
  ],
});

test("a write during the watch from a clock's wait that ended at its deadline is explained: the watch goes on", async () => {
  const { state, session, calls, start } = rig();
  state.next = selectLook({ [PID]: [5, 0] }, 1000, 100); // its clock: select until 1100
  state.watchMs = 500;
  const settled = start(baseline());
  await advance(50);
  expect(settled.done).toBe(false);
  // the clock woke at 1100, redrew, and waits a full period again
  state.next = selectLook({ [PID]: [5, 9] }, 1100.4, 1000);
  session.bytesOut = 9;
  for (let i = 0; i < 40; i++) await advance(1);
  expect(calls.watchEnded).toEqual([]);
  expect(settled.done).toBe(false);
  for (let i = 0; i < 50 && !settled.done; i++) await advance(10);
  expect(calls.watchEnded).toEqual([false]);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("a wake 40 ms before a 1 s select's deadline is not that select's end (a signal timer just before the clock)", async () => {
  const { state, session, calls, start } = rig();
  state.next = selectLook({ [PID]: [5, 0] }, 1000); // select until 2000
  state.watchMs = 500;
  const settled = start(baseline());
  await advance(50);
  state.next = selectLook({ [PID]: [5, 9] }, 1960, 40.2); // the rest of its period, recomputed
  session.bytesOut = 9;
  state.watchMs = 0;
  for (let i = 0; i < 40 && !settled.done; i++) await advance(1);
  expect(calls.watchEnded).toEqual([true]);
});

test("a write during the watch from a wait that ended before its deadline is a wake no wait explains", async () => {
  const { state, session, calls, start } = rig();
  state.next = selectLook({ [PID]: [5, 0] }, 1000); // select until 2000
  state.watchMs = 500;
  const settled = start(baseline());
  await advance(50);
  // a signal interrupted it at 1150: the handler wrote, and the loop waits out the rest of its period
  state.next = selectLook({ [PID]: [5, 9] }, 1150, 850);
  session.bytesOut = 9;
  state.watchMs = 0;
  for (let i = 0; i < 40 && !settled.done; i++) await advance(1);
  expect(calls.watchEnded).toEqual([true]);
  expect(settled.done).toBe(true);
});

test("without a baseline: at rest now, settled after the drain grace (no written bytes to compare)", async () => {
  const { state, log, looks, calls, start } = rig();
  const seen = look();
  state.next = seen;
  const settled = start(undefined);
  await advance(99);
  expect(settled.done).toBe(false);
  await advance(1);
  expect(settled.value).toStrictEqual({ settledBy: "idle", program: "app", ...cost(101) });
  expect(looks.map((l) => l.known)).toEqual(Array(101).fill(undefined)); // looks 1 ms apart at rest
  expect(log).not.toContain("note"); // no input, so no timed waits to learn from
  expect(calls.rested).toEqual([[seen, undefined]]);
});

test("busy: looks 1 ms apart, then an eighth of the time waited, at most 25 ms; timeout at the cap", async () => {
  const { state, log, looks, calls, start, at } = rig();
  const before = baseline();
  state.next = look({ [PID]: [5, 0] }); // it read the key, and works on it
  state.busy = RUNNING;
  const settled = start(before, 1000);
  await advance(999);
  expect(settled.done).toBe(false);
  await advance(1);
  expect(settled.value).toStrictEqual({ settledBy: "timeout", program: "app", busy: RUNNING, ...cost(72) });
  const growing = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 20, 22, 24, 27, 30, 33, 37, 41];
  growing.push(46, 51, 57, 64, 72, 81, 91, 102, 114, 128, 144, 162, 182, 204);
  const capped = Array.from({ length: 31 }, (_, i) => 229 + 25 * i); // up to 979; the last sleep is cut to the cap
  expect(at()).toEqual([...growing, ...capped, 1000]);
  expect(looks.map((l) => l.known)).toEqual([before.look, ...looks.slice(0, -1).map((l) => l.seen)]);
  expect(calls.learnt).toEqual([[state.next, 1000]]);
  expect(log.filter((l) => l === "flush")).toHaveLength(1);
});

test.each([
  ["the same counters", 0, false],
  ["only bytes out, from a rest on a timer (it redraws by itself)", 5, true],
])("a program at rest showing %s is settled only NO_RESPONSE_MS after the input", async (_, wrote, timedRest) => {
  expect(NO_RESPONSE_MS).toBe(250);
  const startAfter = (ago: number) => {
    const { session, state, start, at } = rig();
    state.timedRest = timedRest;
    state.next = look({ [PID]: [0, wrote] });
    session.bytesOut = wrote;
    return { settled: start(baseline(), 1000, ago), at };
  };
  const early = startAfter(NO_RESPONSE_MS - 1);
  await advance(1);
  expect(early.settled.done).toBe(false);
  await advance(25); // looked again 25 ms later (249 / 8 is past the 25 ms bound), then 1 ms apart
  expect(early.settled.value).toMatchObject({ settledBy: "idle" });
  expect(early.at()).toEqual([249, 274, 275]);
  const late = startAfter(NO_RESPONSE_MS);
  await advance(1);
  expect(late.settled.value).toMatchObject({ settledBy: "idle" });
});

test("a process gone since the baseline is no response: a zombie of the last input's work reaped before this key is read", async () => {
  const { state, start } = rig();
  // The baseline still had the zombie (101); the program reaped it, and waits for its key as before.
  state.next = look({ [PID]: [0, 0] });
  const settled = start(baseline(look({ [PID]: [0, 0], 101: [0, 0] })));
  await advance(NO_RESPONSE_MS - 1);
  expect(settled.done).toBe(false);
  await advance(30);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test.each([
  ["it read", look({ [PID]: [5, 0] }), 0],
  ["another group took the terminal", look({ [PID]: [0, 0] }, 300), 0],
  ["a process joined the group", look({ [PID]: [0, 0], 101: [0, 0] }), 0],
  ["it wrote", look({ [PID]: [0, 5] }), 5],
])("a response settles at once: %s", async (_, seen, bytesOut) => {
  const { session, state, start } = rig();
  state.next = seen;
  session.bytesOut = bytesOut; // since the baseline's 0
  const settled = start(baseline());
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("output not yet drained keeps it looking until the bytes received cover the bytes written", async () => {
  const { session, state, start } = rig();
  // 40 bytes written since the baseline (30 by the program, 10 by a new process: counted in full);
  // 10 had arrived before the settle began, and count.
  state.next = look({ [PID]: [5, 1030], 101: [0, 10] });
  session.bytesOut = 1010;
  const settled = start(baseline(look({ [PID]: [0, 1000] }), 1000));
  await advance(30);
  session.bytesOut = 1039;
  await advance(2);
  expect(settled.done).toBe(false);
  session.bytesOut = 1040;
  await advance(1); // new bytes: one more look must see no more
  expect(settled.done).toBe(false);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("the input's echo is no proof the output is in: the bytes received must cover the echo too", async () => {
  const { session, state, start } = rig();
  // A shell: 12 bytes of command line echoed by the tty (budget 13), 8 bytes of output written.
  state.echoed = 13;
  state.next = look({ [PID]: [12, 1008] });
  session.bytesOut = 1012; // the echo is in, the output is not
  const settled = start(baseline(look({ [PID]: [0, 1000] }), 1000));
  await advance(30);
  expect(settled.done).toBe(false);
  session.bytesOut = 1021; // echo (with its CR LF) and output: 21 >= 13 + 8
  await advance(2);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("output that never arrives: settled 100 ms after the rest began, looking every ms meanwhile", async () => {
  const { state, looks, start } = rig();
  state.next = look({ [PID]: [5, 40] });
  const settled = start(baseline(), 1000, 400); // 400 ms in: while busy, looks would be 25 ms apart
  await advance(99);
  expect(settled.done).toBe(false);
  expect(looks).toHaveLength(100);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("output the counters cannot account for (files, pipes): settled once a fence raised at rest comes back", async () => {
  const { state, log, start } = rig();
  state.fences = true;
  state.next = look({ [PID]: [5, 40] });
  const settled = start(baseline());
  await flush();
  expect(log.filter((l) => l === "fence")).toHaveLength(1); // raised at the first look at rest
  await advance(5);
  expect(settled.done).toBe(false);
  state.fencePassed = 1;
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
  expect(log.filter((l) => l === "fence")).toHaveLength(1);
});

test("a write after the fence's look takes a new fence: the old one proves nothing about it", async () => {
  const { state, log, start } = rig();
  state.fences = true;
  state.next = look({ [PID]: [5, 40] });
  const settled = start(baseline());
  await advance(2);
  state.next = look({ [PID]: [5, 41] }); // it wrote once more, and is back at rest
  state.fencePassed = 1;
  await advance(1);
  expect(settled.done).toBe(false);
  expect(log.filter((l) => l === "fence")).toHaveLength(2);
  await advance(3);
  expect(settled.done).toBe(false);
  state.fencePassed = 2;
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("a fence on its way is waited for past the drain grace; once taken as lost, the grace ends the wait", async () => {
  const { state, start } = rig();
  state.fences = true;
  state.next = look({ [PID]: [5, 40] });
  const settled = start(baseline());
  await advance(300);
  expect(settled.done).toBe(false);
  state.fenceLost = true;
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("bytes between two looks at rest take one more look, and one flush", async () => {
  const { session, state, log, start } = rig();
  state.next = look({ [PID]: [5, 3] });
  const settled = start(baseline());
  session.bytesOut = 3;
  await advance(1);
  expect(settled.done).toBe(false);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
  expect(log.filter((l) => l === "flush")).toHaveLength(1);
});

test("a look that finds it busy again restarts the rest count", async () => {
  const { state, looks, start } = rig();
  state.next = look({ [PID]: [5, 0] });
  state.onLook = () => void (state.busy = looks.length === 1 ? RUNNING : undefined); // only the second look
  const settled = start(baseline());
  await advance(2);
  expect(settled.done).toBe(false);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("bytes that arrive during the last flush take one more look", async () => {
  const { session, state, log, start } = rig();
  state.next = look({ [PID]: [5, 0] });
  state.onFlush = () => {
    if (log.filter((l) => l === "flush").length === 1) session.bytesOut += 2;
  };
  const settled = start(baseline());
  await advance(1);
  expect(settled.done).toBe(false);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
});

test("the program exits: the settle ends once the exit is handled", async () => {
  const { session, state, exited, start } = rig();
  state.busy = RUNNING;
  const settled = start(baseline());
  await advance(1);
  session.running = false;
  await advance(1);
  expect(settled.done).toBe(false);
  exited.resolve();
  await flush();
  expect(settled.value).toStrictEqual({ settledBy: "exit", ...cost(2) });
});

test("the group can no longer be read: quiet, at once (no start-up rest learnt)", async () => {
  const { group, rests, state, looks, start } = rig();
  rests.restGroup = undefined;
  state.next = undefined;
  group.available = false;
  const settled = start(undefined);
  await flush();
  expect(settled.value).toStrictEqual({ settledBy: "quiet", ...cost(1) });
  expect(looks).toHaveLength(1);
});

test("a look that fails while the group is still readable is tried again 1 ms later", async () => {
  const { session, rests, state, log, exited, start, at } = rig();
  rests.restGroup = undefined;
  state.next = undefined; // the start-up look fails too: nothing to learn
  const settled = start(undefined);
  await advance(2);
  session.running = false;
  exited.resolve();
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "exit" });
  expect(at()).toEqual([0, 0, 1, 2]);
  expect(log).not.toContain("remember");
});

test("an aborted signal ends the settle with CANCELLED at the next look", async () => {
  const { state, looks, start } = rig();
  state.busy = RUNNING;
  const abort = new AbortController();
  const settled = start(baseline(), 1000, 0, abort.signal);
  await advance(5);
  abort.abort();
  await advance(1);
  expect(settled.error).toMatchObject({ code: "CANCELLED", message: "The wait was cancelled by the client." });
  expect(looks).toHaveLength(6);
});

test("a timeout with no response reports the group as sleeping, and what it saw learnt", async () => {
  const { state, calls, start } = rig();
  const other = { ...look({ [PID]: [0, 0] }, 300), leader: undefined }; // a group with no leader left
  state.next = other;
  const settled = start(baseline(other), 200);
  await advance(200);
  const busy: Busy = { pid: 300, command: "?", state: "sleeping" };
  expect(settled.value).toStrictEqual({ settledBy: "timeout", busy, ...cost(40) });
  expect(calls.learnt).toEqual([[other, 200]]);
});

test("at rest but writing at every look: a timeout with nothing busy", async () => {
  const { session, state, start } = rig();
  state.next = look({ [PID]: [5, 0] });
  state.onLook = () => void session.bytesOut++;
  const settled = start(baseline(), 50);
  await advance(50);
  expect(settled.value).toStrictEqual({ settledBy: "timeout", program: "app", ...cost(51) });
});

test("without a baseline or a known rest, the first look is learnt as the start-up rest", async () => {
  const { rests, state, log, calls, start } = rig();
  rests.restGroup = undefined;
  const first = look();
  state.next = first;
  const settled = start(undefined);
  await flush(); // the settle's own looks start after the start-up's
  await advance(100);
  expect(settled.value).toMatchObject({ settledBy: "idle" });
  expect(calls.remembered).toEqual([[first, true]]);
  expect(log.slice(0, 2)).toEqual(["remember", "stopWatching"]);
});

test.each([
  ["after an input", true, undefined, true],
  ["once the rest is known", false, PID, true],
  ["once the program has exited", false, undefined, false],
])("no start-up rest is learnt %s", async (_, withBaseline, restGroup, running) => {
  const { session, rests, log, exited, start } = rig();
  rests.restGroup = restGroup;
  session.running = running;
  exited.resolve();
  const settled = start(withBaseline ? baseline() : undefined);
  session.running = false; // the next turn ends it
  await advance(1);
  expect(settled.done).toBe(true);
  expect(log).not.toContain("remember");
});

test("the start-up rest is looked for during at most half the cap, every 10 ms", async () => {
  const { session, rests, exited, start, at } = rig();
  rests.restGroup = undefined;
  session.lastOutputAt = Number.POSITIVE_INFINITY; // never quiet: it looks until its bound
  rests.stopWatching = () => void (session.running = false); // the start-up is over: end the settle
  exited.resolve();
  const settled = start(undefined, 400);
  await advance(199);
  expect(settled.done).toBe(false);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "exit" });
  expect(at()).toEqual(Array.from({ length: 21 }, (_, i) => 10 * i));
});

/** A look where a `sleep` child is in nanosleep(timeoutMs), asleep since `sleptAt`. */
const sleepLook = (timeoutMs: number, sleptAt = 1000): Look => ({
  ...look({ [PID]: [5, 0], 201: [0, 0] }),
  threads: [
    {
      pid: 201,
      tid: 201,
      command: "sleep",
      name: "sleep",
      activity: {
        kind: "wait",
        call: "nanosleep",
        nr: 35,
        waitKind: "sleep",
        timed: true,
        timeoutMs,
        deadline: sleptAt + timeoutMs,
      },
    },
  ],
});

test("busy only in a timer that began after the input and ends after the cap: unsure at once, not a timeout", async () => {
  const { state, calls, start } = rig();
  const busy: Busy = { pid: 201, command: "sleep", state: "timer", timerDueMs: 5000 };
  state.busy = busy;
  state.next = sleepLook(5000);
  const settled = start(baseline(), 1000);
  await advance(1);
  await advance(1);
  expect(settled.value).toMatchObject({ settledBy: "unsure", program: "app", busy });
  expect(calls.learnt).toEqual([[state.next, 1000]]); // what it saw learnt, as at a timeout
  expect(calls.rested).toEqual([]); // not remembered as a rest
});

test("a timer due within the cap is waited for; one already asleep at the input is not judged far", async () => {
  const { state, start } = rig();
  state.busy = { pid: 201, command: "sleep", state: "timer", timerDueMs: 900 };
  state.next = sleepLook(900);
  const near = start(baseline(), 1000);
  await advance(1000);
  expect(near.value).toMatchObject({ settledBy: "timeout" });
  // The same nanosleep(5000) as in the look before the input: it may end at any time.
  state.busy = { pid: 201, command: "sleep", state: "timer", timerDueMs: 5000 };
  state.next = sleepLook(5000);
  const asleep = start(baseline(sleepLook(5000)), 1000);
  await advance(1000);
  expect(asleep.value).toMatchObject({ settledBy: "timeout" });
});
