/**
 * Where each input begins: the screen just before it, which waitFor { after: "input" } and the input
 * history compare with. One input call may write several times; it still begins once.
 */
import type { ScreenBaseline } from "./baseline.ts";

/** Who typed: the agent through a tool, or a human through the web viewer. */
export type InputSource = "agent" | "human";

export class InputStarts {
  /** The screen just before the latest input began. */
  latest: ScreenBaseline | null = null;
  private groupDepth = 0;
  private groupStarted = false;
  private readonly listeners = new Set<(baseline: ScreenBaseline, from: InputSource) => void>();

  /** An input begins: the screen just before it. Returns the unsubscribe. */
  onStart(listener: (baseline: ScreenBaseline, from: InputSource) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Run `action` as one input: only its first write or resize begins an input. */
  async asOne<T>(action: () => T | Promise<T>): Promise<T> {
    if (this.groupDepth++ === 0) this.groupStarted = false;
    try {
      return await action();
    } finally {
      this.groupDepth--;
    }
  }

  /** Keep the screen as it is before this input (once per asOne group), then tell the listeners. */
  begin(from: InputSource, screenNow: () => ScreenBaseline): void {
    if (this.groupDepth > 0 && this.groupStarted) return;
    if (this.groupDepth > 0) this.groupStarted = true;
    this.latest = screenNow();
    for (const listener of this.listeners) listener(this.latest, from);
  }
}
