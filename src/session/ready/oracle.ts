/**
 * The ready oracle: is the terminal's foreground process group back at rest after an input?
 * See docs/ready-oracle.md for the rule. One oracle per session, made of: foreground.ts (looks at the
 * group, knows whether /proc can be read), rest-model.ts (the rest it remembers and judges looks
 * against), startup.ts (the start-up rule), own-writes.ts (periodic redraws), settle.ts (the loop).
 */
import type { Session } from "../session.ts";
import { FirstInputGate, type Held } from "./first-input.ts";
import { ForegroundLooker } from "./foreground.ts";
import { HiddenTimerWatch } from "./hidden-timer-watch.ts";
import type { AtRest, Baseline, Busy, ReadyOutcome } from "./outcome.ts";
import { echoBudget } from "./echo-budget.ts";
import { OwnWrites } from "./own-writes.ts";
import { writesOf, type Look } from "./reading.ts";
import { RestModel } from "./rest-model.ts";
import { ringStanding } from "./rings.ts";
import { runtimeTimerDue } from "./runtime-timers.ts";
import { settle, type SettleParts } from "./settle.ts";
import { ALARM_UNSEEN, catchesAlarm, signalTimerSource } from "./signal-timers.ts";
import { certainRest, learnStartupRest, STARTUP_LOOK_MS, watchStartupPeriod } from "./startup.ts";

export type { AtRest, Baseline, Busy, ReadyOutcome, SettledBy } from "./outcome.ts";
export type { Held } from "./first-input.ts";

/** What the foreground group does at a look (activityNow). */
export interface Activity {
  /** A thread runs (or is in disk sleep). */
  running: boolean;
  /** The group waits for input. */
  input: boolean;
  /** Bytes its processes have written (wchar), summed. */
  wchar: number;
  /** Its processes and each one's wchar (reading.ts writesOf), for a fence (output-fence.ts FenceDrain). */
  writes: string;
}

export class ReadyOracle {
  private readonly group: ForegroundLooker;
  private readonly rests = new RestModel();
  private readonly ownWrites = new OwnWrites();
  /** The bytes the terminal may have echoed for all inputs so far (echo-budget.ts). */
  private echoed = 0;
  private readonly hiddenTimers = new HiddenTimerWatch();
  /** True while the program is known to be at rest since the last input (an oracle settle, or a look that said so). */
  private confirmed = false;
  private inputs = 0;
  private startupTried = false;
  private readonly parts: SettleParts;
  private readonly gate: FirstInputGate;

  constructor(private readonly session: Session) {
    this.group = new ForegroundLooker(session);
    this.gate = new FirstInputGate(session, this.group);
    this.parts = {
      session,
      group: this.group,
      rests: this.rests,
      atRest: (seen, base) => this.atRest(seen, base),
      shortTick: (seen) => this.rests.shortTick(seen),
      nearWake: (seen) => this.rests.nearWake(seen),
      hiddenWatchMs: (seen) =>
        this.hiddenTimers.watchMs(seen, (pid) => this.group.guarded(() => signalTimerSource(pid))),
      hiddenWatchEnded: (woke) => this.hiddenTimers.ended(woke),
      echoedSince: (at) => this.echoed - at,
    };
    session.onInput((bytes) => {
      this.inputs++;
      this.echoed += echoBudget(bytes);
      this.confirmed = false;
    });
    if (this.group.available)
      void watchStartupPeriod(
        session,
        this.group,
        this.rests,
        () => this.inputs > 0,
        // At rest after start-up: what it writes before the first input is its own (a redraw).
        () => this.ownWrites.settled(session.bytesOut, 0),
      ).catch(() => undefined);
  }

  /** Why the oracle cannot run for this session, or undefined when it can. */
  get unavailable(): string | undefined {
    return this.group.unavailable;
  }

  get available(): boolean {
    return this.group.available;
  }

  /**
   * Before the session's first input: hold it until the program is through its start-up (waiting for
   * its terminal, its start-up queries' replies read), at most FIRST_INPUT_HOLD_MS. Undefined when it
   * was not held.
   */
  holdFirstInput(signal?: AbortSignal): Promise<Held | undefined> {
    if (this.gate.passed || this.inputs > 0) return Promise.resolve(undefined);
    return this.gate.hold(signal);
  }

  /** Called just before an input is written. Undefined when the oracle cannot be used. */
  async baseline(): Promise<Baseline | undefined> {
    if (!this.available || !this.session.running) return undefined;
    let first = this.group.guarded(() => this.group.lookNow());
    if (first === undefined) return undefined;
    if (this.rests.restGroup === undefined && !this.startupTried) {
      // Tried once from an input: a program never seen waiting does not cost every input the wait.
      this.startupTried = true;
      // At rest for certain (no timer shorter than a runtime's idle tick): no need to wait for quiet.
      if (certainRest(first, this.session.pid)) this.rests.remember(first, true);
      else first = await learnStartupRest(this.session, this.group, this.rests, first, STARTUP_LOOK_MS);
      if (first === undefined) return undefined;
    } else if (this.confirmed) {
      this.rests.remember(first, false);
    }
    this.group.markInput();
    this.rests.notePhase(first);
    this.ownWrites.note(this.session.bytesOut, this.inputs);
    return {
      look: first,
      bytesOut: this.session.bytesOut,
      lastOutputAt: this.session.lastOutputAt,
      echoedAt: this.echoed,
    };
  }

  /**
   * Wait until the program is back at rest after an input (or, without a baseline, at rest now) and
   * the emulator has parsed what it wrote; at most `capMs` from `since`.
   */
  settle(baseline: Baseline | undefined, since: number, capMs: number, signal?: AbortSignal): Promise<ReadyOutcome> {
    return settle(this.parts, baseline, since, capMs, signal);
  }

  /** The settle found the program at rest: remember it, and say how to report it. */
  private atRest(seen: Look, base: Look | undefined): AtRest {
    this.confirmed = true;
    this.rests.remember(seen, false);
    if (base === undefined) this.ownWrites.note(this.session.bytesOut, this.inputs);
    const onTimer = this.rests.restsOnTimer(seen);
    const periodic = this.ownWrites.periodic(onTimer);
    this.ownWrites.settled(this.session.bytesOut, this.inputs);
    const tick = this.rests.shortTick(seen);
    if (tick !== undefined) return { settledBy: "unsure", tickMs: tick.tickMs };
    // It catches SIGALRM: an alarm any input set shows in no wait (signal-timers.ts catchesAlarm).
    if (seen.pids.some((pid) => this.group.guarded(() => catchesAlarm(pid)) === true))
      return { settledBy: "unsure", unseen: ALARM_UNSEEN };
    // A runtime's scheduler waits for its next timer, which may be the program's (runtime-timers.ts).
    const runtimeTimer = runtimeTimerDue(seen);
    if (runtimeTimer !== undefined) return { settledBy: "unsure", unseen: runtimeTimer };
    // It writes on its own while every thread rests with no timer, or was seen waking so, or its ring
    // holds a standing request: something no wait shows wakes it (a signal timer: setitimer,
    // timer_create; a timeout on its io_uring; data from outside the group).
    if ((this.ownWrites.writesOnItsOwn && !onTimer) || this.hiddenTimers.woke || ringStanding(seen))
      return { settledBy: "unsure" };
    return { settledBy: periodic ? "periodic" : "idle" };
  }

  /**
   * A look now: does a thread of the foreground group run, and does the group wait for input (every
   * process's main thread in an input wait or waiting on another thread, one of them for input)?
   * (foregroundActivity)
   */
  activityNow(): Activity | undefined {
    const seen = this.group.guarded(() => this.group.lookNow());
    if (seen === undefined) return undefined;
    const running = seen.threads.some((t) => t.activity.kind === "running" || t.activity.kind === "disk");
    const mains = seen.threads.filter((t) => t.tid === t.pid).map((t) => t.activity);
    const waitKind = (a: (typeof mains)[number]) => (a.kind === "wait" ? a.waitKind : a.kind);
    const input =
      mains.length > 0 &&
      mains.every((a) => waitKind(a) === "input" || waitKind(a) === "other-thread") &&
      mains.some((a) => waitKind(a) === "input");
    let wchar = 0;
    for (const io of seen.io.values()) wchar += io.wchar;
    return { running, input, wchar, writes: writesOf(seen) };
  }

  /** One look, for a fixed or waitFor settle: is the program at rest now? Undefined when unknown. */
  atRestNow(): { atRest: boolean; busy?: Busy; program?: string } | undefined {
    // Without a known rest a timer wait cannot be judged (bun idles on a 1 s timer): unknown.
    if (!this.available || !this.session.running || this.rests.restGroup === undefined) return undefined;
    const seen = this.group.guarded(() => this.group.lookNow());
    if (seen === undefined) return undefined;
    const busy = this.rests.busyIn(seen, this.session.pid);
    if (busy === undefined) this.confirmed = true;
    return { atRest: busy === undefined, program: seen.leader, ...(busy ? { busy } : {}) };
  }
}

/**
 * What the terminal's foreground group does right now, known rest or not: whether a thread runs, and
 * whether it waits for input (read, poll, select, epoll: timed or not; see activityNow), and the bytes
 * its processes have written (wchar); undefined when the oracle cannot look. Frame finishing (frame-finish.ts) asks it so that a writer the scheduler has not run,
 * or one that sleeps between two writes of a frame, is not taken for done.
 */
export function foregroundActivity(session: Session): Activity | undefined {
  const oracle = readyOracle(session);
  if (!oracle.available || !session.running) return undefined;
  return oracle.activityNow();
}

/** The session's oracle (made on first use; the registry makes it at start, so it sees the start-up queries). */
export function readyOracle(session: Session): ReadyOracle {
  session.readyOracle ??= new ReadyOracle(session);
  return session.readyOracle;
}
