/** Live monitors, capped by TUI_TESTER_MAX_MONITORS. */
import { TuiError } from "../errors.ts";
import { DEFAULT_CONFIG } from "../config.ts";
import type { Session } from "../session/session.ts";
import { Monitor, type MonitorOptions, type MonitorReport } from "./monitor.ts";

export class MonitorRegistry {
  private readonly monitors = new Map<string, Monitor>();
  private counter = 0;

  constructor(readonly maxMonitors: number = DEFAULT_CONFIG.maxMonitors) {}

  start(session: Session, options: MonitorOptions): Monitor {
    if (this.monitors.size >= this.maxMonitors) {
      throw new TuiError(
        "LIMIT_REACHED",
        `${this.monitors.size} monitors are recording, the limit is ${this.maxMonitors} (TUI_TESTER_MAX_MONITORS).`,
        `Stop one with stop_monitor (recording: ${[...this.monitors.keys()].join(", ")}), or raise TUI_TESTER_MAX_MONITORS.`,
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
        ids.length > 0 ? `Recording monitors: ${ids.join(", ")}.` : "No monitor is recording; start one with start_monitor.",
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

  stopAll(): void {
    for (const id of [...this.monitors.keys()]) this.stop(id);
  }
}

