/**
 * Runtimes that keep the program's timers in a wheel of their own and park their scheduler threads
 * until the next one is due. The BEAM's schedulers (erts names them `<n>_scheduler`) wait in a futex
 * for the nearest Erlang timer: the program's (`receive ... after`, `erlang:send_after`) or the
 * runtime's own (about 1 s apart for a few seconds after start, then 40-350 s out). The wait shows
 * when that timer is due, not whose it is, so a rest with one due within UNSURE_TICK_MS cannot be
 * told from a program with work behind it (fresh O's escript, a `send_after(500)` behind a
 * `receive ... after 150` clock, was claimed `idle`). Counting the schedulers' waits as ticks instead
 * made at-once Erlang settles wait out the runtime's own timers (500-2,000 ms).
 */
import type { Look } from "./reading.ts";
import { UNSURE_TICK_MS } from "./rest-model.ts";

/** A runtime's scheduler threads, by the runtime's command name. */
const SCHEDULERS: ReadonlyMap<string, { name: RegExp; runtime: string }> = new Map([
  ["beam.smp", { name: /^\d+_scheduler$/, runtime: "Erlang" }],
]);

/**
 * Why `seen` cannot be told at rest because a runtime's scheduler waits for its next timer within
 * UNSURE_TICK_MS, in words (AtRest.unseen), or undefined.
 */
export function runtimeTimerDue(seen: Look): string | undefined {
  let dueMs: number | undefined;
  let runtime = "";
  for (const { command, name, activity: a } of seen.threads) {
    const scheduler = SCHEDULERS.get(command);
    if (scheduler === undefined || name === undefined || !scheduler.name.test(name)) continue;
    if (a.kind !== "wait" || a.call !== "futex" || !a.timed || a.timeoutMs === undefined) continue;
    if (a.timeoutMs >= UNSURE_TICK_MS || (dueMs !== undefined && a.timeoutMs >= dueMs)) continue;
    dueMs = a.timeoutMs;
    runtime = scheduler.runtime;
  }
  return dueMs === undefined
    ? undefined
    : `its ${runtime} scheduler waits for a timer due in ${dueMs} ms, and no wait shows whether it is the program's or the runtime's`;
}
