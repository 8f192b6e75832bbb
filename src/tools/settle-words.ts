/**
 * How a settle is told: an input's settle line (reply.ts) and wait_for_idle's summary say what the
 * ready oracle found with the same phrases, built here: the program back at rest, a rest that cannot
 * be told apart from work behind a short tick, and what a busy program was doing.
 */
import type { ScreenBlock, SettleVerdict } from "../session/observe.ts";
import { ADAPTIVE_QUIET_MS } from "../session/quiet-window.ts";
import type { Busy } from "../session/ready/oracle.ts";
import type { WaitIdleResult } from "../session/wait.ts";

/** A busy program: "python3 (pid 42)". */
const busyWho = (busy: Busy) => `${busy.command} (pid ${busy.pid})`;

/** A timer's state: "in a 100 ms timed wait". */
const timedWait = (busy: Busy) => `in a ${busy.timerDueMs !== undefined ? `${busy.timerDueMs} ms ` : ""}timed wait`;

/** What a busy program was doing, as the end of a sentence ("python3 (pid 42) is running"). */
export function busyText(busy: Busy): string {
  if (busy.state === "timer") return `${busyWho(busy)} is ${timedWait(busy)}`;
  return `${busyWho(busy)} is ${busy.state === "running" ? "running" : "waiting on something other than input"}`;
}

/** Back at rest: "vim is waiting for input", and for a periodic rest "... and redraws on a timer". */
function atRest(settledBy: "idle" | "periodic", program: string): string {
  return `${program} is waiting for input${settledBy === "periodic" ? " and redraws on a timer" : ""}`;
}

/** "Cannot tell after 4 ms whether python3 is done: " and why. */
function cannotTell(ms: number, program: string, why: string): string {
  return `Cannot tell after ${ms} ms whether ${program} is done: ${why}`;
}

/**
 * Why a rest on a short tick cannot be told: "it wakes every 100 ms"; or, with no tick (it writes on
 * its own with no timer in sight), "it wakes on something no wait shows".
 */
function wakes(tickMs: number | undefined): string {
  return tickMs === undefined
    ? "it wakes on something no wait shows (it woke or wrote on its own: a signal timer, a request on its io_uring, or data from outside)"
    : `it wakes every ${tickMs} ms`;
}

/**
 * Back at rest but for a timer due after the settle's limit (far-timers.ts): "Cannot tell after 9 ms
 * whether bash is done: sleep (pid 7) is in a 5000 ms timed wait, due after this wait's limit".
 */
function farTimer(ms: number, program: string, busy: Busy): string {
  return `Cannot tell after ${ms} ms whether ${program} is done: ${busyText(busy)}, due after this wait's limit`;
}

/** The settle statement of an input's screen block: the ready oracle's verdict (docs/ready-oracle.md). */
export function settleStatement(block: SettleVerdict): string {
  // OSC 133 prompt marks (shell integration): the finished command's exit status.
  const status =
    block.commandStatus === undefined
      ? ""
      : ` The command finished${block.commandStatus === null ? "" : ` with exit status ${block.commandStatus}`}.`;
  return heldStatement(block.held) + settleVerdict(block) + status;
}

/** An input's waitFor that timed out without failing it: it settled on its timeout, not on the text. */
export function missedWaitStatement(block: Pick<ScreenBlock, "waitedMs" | "busy">): string {
  return `Waited ${block.waitedMs} ms: the waitFor text did not appear${block.busy ? `; ${busyText(block.busy)}` : ""}.`;
}

/** The first input waited for the program to get through its start-up (its terminal queries). */
function heldStatement(held: ScreenBlock["held"]): string {
  if (held === undefined) return "";
  if (held.timedOut)
    return `Sent after ${held.heldMs} ms although the program was still starting up (not reading its terminal yet). `;
  return `Held ${held.heldMs} ms until the program was through its start-up and reading its terminal. `;
}

function settleVerdict(block: SettleVerdict): string {
  const ms = block.waitedMs;
  const program = block.program ?? "the program";
  const busy = block.busy;
  switch (block.settledBy) {
    case "idle":
    case "periodic":
      return `Settled in ${ms} ms: ${atRest(block.settledBy, program)}.`;
    case "unsure":
      if (busy?.state === "timer") return `${farTimer(ms, program, busy)}. Use waitFor for the text you expect.`;
      if (block.unseen !== undefined)
        return `${cannotTell(ms, program, block.unseen)}. Use waitFor for the text you expect.`;
      return (
        `${cannotTell(ms, program, wakes(block.tickMs))}, ` +
        "and work it does at a wake-up shows in no wait. Use waitFor for the text you expect."
      );
    case "exit":
      return `Settled in ${ms} ms: the program exited.`;
    case "quiet":
      return (
        `Settled after ${ms} ms: output quiet for ${ADAPTIVE_QUIET_MS} ms ` +
        `(${block.fallback ?? "no view of the program"}; it may still be working).`
      );
    case "timeout":
      if (busy) return `Still busy after ${ms} ms: ${busyText(busy)}. Use waitFor or wait_for_idle to catch the rest.`;
      return `Output still arriving after ${ms} ms: use waitFor or wait_for_idle to catch later output.`;
    case "waitFor":
      return `Text seen after ${ms} ms${busy ? `; ${busyText(busy)}` : ""}.`;
    default:
      return `Waited ${block.waitAfterMs} ms${busy ? `; ${busyText(busy)}` : ""}.`;
  }
}

/** wait_for_idle's summary: the same verdicts, said of a wait rather than of an input. */
export function idleSummary(result: WaitIdleResult, timeoutMs: number): string {
  const program = result.program ?? "the program";
  switch (result.settledBy) {
    case "idle":
    case "periodic":
      return `Idle after ${result.elapsedMs} ms: ${atRest(result.settledBy, program)}`;
    case "unsure":
      if (result.busy?.state === "timer")
        return `${farTimer(result.elapsedMs, program, result.busy)} (use wait_for_text)`;
      if (result.unseen !== undefined)
        return `${cannotTell(result.elapsedMs, program, result.unseen)} (use wait_for_text)`;
      return (
        `${cannotTell(result.elapsedMs, program, wakes(result.tickMs))} ` +
        "and work at a wake-up shows in no wait (use wait_for_text)"
      );
    case "exit":
      return `The program exited after ${result.elapsedMs} ms`;
    case "quiet":
      return (
        `Quiet after ${result.elapsedMs} ` +
        `ms${result.fallback ? ` (${result.fallback}: output quiet, the program may still be working)` : ""}`
      );
    default: {
      const busy = result.busy;
      if (busy === undefined) return `Still writing after ${timeoutMs} ms`;
      // the raw state ("is sleeping") where an input's line says "waiting on something other than input"
      const state = busy.state === "timer" ? timedWait(busy) : busy.state;
      return `Still busy after ${timeoutMs} ms: ${busyWho(busy)} is ${state}`;
    }
  }
}
