/**
 * Monitors, capped by TUI_TESTER_MAX_MONITORS while recording. A monitor whose session exited has
 * stopped recording and no longer counts; it is kept for stop_monitor to read, up to the same number
 * of ended monitors (the oldest goes first), so frames nobody collects cannot pile up.
 */
import { TuiError } from "../errors.ts";
import { DEFAULT_CONFIG } from "../config.ts";
import type { Session } from "../session/session.ts";
import { Monitor, type MonitorOptions, type MonitorReport } from "./monitor.ts";

export class MonitorRegistry {
  private readonly monitors = new Map<string, Monitor>();
  private counter = 0;

  constructor(readonly maxMonitors: number = DEFAULT_CONFIG.maxMonitors) {}

  start(session: Session, options: MonitorOptions): Monitor {
    this.pruneEnded();
    const recording = [...this.monitors.values()].filter((m) => m.recording);
    if (recording.length >= this.maxMonitors) {
      throw new TuiError(
        "LIMIT_REACHED",
        `${recording.length} monitors are recording, the limit is ${this.maxMonitors} (TUI_TESTER_MAX_MONITORS).`,
        `Stop one with stop_monitor (recording: ${recording.map((m) => m.id).join(", ")}), ` +
          "or raise TUI_TESTER_MAX_MONITORS.",
      );
    }
    const id = `mon-${++this.counter}-${Math.random().toString(36).slice(2, 6)}`;
    const monitor = new Monitor(id, session, options);
    this.monitors.set(id, monitor);
    return monitor;
  }

  stop(id: string): MonitorReport {
    const monitor = this.monitors.get(id);
    if (monitor === undefined) {
      const ids = [...this.monitors.keys()];
      throw new TuiError(
        "MONITOR_NOT_FOUND",
        `No monitor with id "${id}".`,
        ids.length > 0
          ? `Known monitors: ${ids.join(", ")}.`
          : "No monitor is recording; start one with start_monitor.",
      );
    }
    this.monitors.delete(id);
    return monitor.stop();
  }

  /** Stop a monitor that run_script started for itself; it does not count as the caller's. */
  release(monitor: Monitor): MonitorReport {
    this.monitors.delete(monitor.id);
    return monitor.stop();
  }

  /** Ended monitors beyond maxMonitors are dropped, oldest first (Map order is start order). */
  private pruneEnded(): void {
    const ended = [...this.monitors.values()].filter((m) => !m.recording);
    const over = Math.max(0, ended.length - this.maxMonitors);
    for (const monitor of ended.slice(0, over)) this.monitors.delete(monitor.id);
  }

  stopAll(): void {
    for (const id of [...this.monitors.keys()]) this.stop(id);
  }
}
