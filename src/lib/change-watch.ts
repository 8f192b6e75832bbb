/**
 * A watch on what can change a check's answer: the screen (every parsed write, a synchronized
 * update's release), the program's exit, and optionally a file's directory. It is armed before the
 * first look, so a change that lands between a look and the wait after it is not missed: `next()`
 * then resolves at once.
 */
import { watch, type FSWatcher } from "node:fs";
import { dirname } from "node:path";
import type { Session } from "../session/session.ts";

/** Without a directory to watch (it does not exist yet), look again this often. */
const NO_WATCH_RECHECK_MS = 100;

export interface ChangeWatch extends Disposable {
  /** Resolves at the first change since the previous call (at once if there was one), or after `ms`. */
  next(ms: number, signal?: AbortSignal): Promise<void>;
}

export function watchChanges(session: Session | undefined, file?: string): ChangeWatch {
  let changed = false;
  let wake: (() => void) | undefined;
  const changes = () => {
    changed = true;
    wake?.();
  };
  const offs: (() => void)[] = [];
  if (session?.running)
    offs.push(session.emulator.onParsed(changes), session.emulator.onSyncRelease(changes), session.onExit(changes));
  let watcher: FSWatcher | undefined;
  if (file !== undefined) {
    try {
      watcher = watch(dirname(file), changes);
      watcher.on("error", changes);
    } catch {
      watcher = undefined;
    }
  }
  const cap = file !== undefined && watcher === undefined ? NO_WATCH_RECHECK_MS : Number.POSITIVE_INFINITY;
  return {
    next(ms, signal) {
      if (changed || signal?.aborted) {
        changed = false;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", done);
          wake = undefined;
          changed = false;
          resolve();
        };
        const timer = setTimeout(done, Math.min(ms, cap));
        signal?.addEventListener("abort", done, { once: true });
        wake = done;
      });
    },
    [Symbol.dispose]() {
      for (const off of offs) off();
      watcher?.close();
      wake?.();
    },
  };
}
