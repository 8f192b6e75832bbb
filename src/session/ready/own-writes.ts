/**
 * Whether a program writes on its own while at rest (a spinner, a clock), so that a settle back at a
 * rest on a timer is reported `periodic` rather than waited out.
 */

/** Output in this window before an input, from a program that rests on a timer, makes the settle `periodic`. */
const PERIODIC_WINDOW_MS = 1000;

export class OwnWrites {
  private bytesAtLastSettle: number | undefined;
  private lastSettleAt = 0;
  private inputsAtLastSettle = 0;
  /** The program has been seen writing on its own while at rest: see periodic(). */
  writesOnItsOwn = false;

  /**
   * Before an input: did the program write while it was at rest since the last settle, with no input
   * since? Output then is its own (a redraw on a timer). Before the first settle nothing is known
   * (start-up output is not a redraw), so the first input of a spinner settles as idle. Inputs sent
   * back to back leave no gap to see it in, so the finding stays until a gap of PERIODIC_WINDOW_MS
   * without output says otherwise.
   */
  note(bytesOut: number, inputs: number): void {
    const now = performance.now();
    if (this.bytesAtLastSettle === undefined) return;
    // Output after an input that was not settled here (waitFor, fixed) may be that input's answer.
    if (inputs !== this.inputsAtLastSettle) return;
    if (bytesOut > this.bytesAtLastSettle) this.writesOnItsOwn = true;
    else if (now - this.lastSettleAt >= PERIODIC_WINDOW_MS) this.writesOnItsOwn = false;
  }

  /** Back at rest, with a thread resting on a timer, and writing on its own: a periodic redraw, not waited out. */
  periodic(restsOnTimer: boolean): boolean {
    return this.writesOnItsOwn && restsOnTimer;
  }

  /** The program settled at rest here, having received `bytesOut` bytes over `inputs` inputs. */
  settled(bytesOut: number, inputs: number): void {
    this.bytesAtLastSettle = bytesOut;
    this.lastSettleAt = performance.now();
    this.inputsAtLastSettle = inputs;
  }
}
