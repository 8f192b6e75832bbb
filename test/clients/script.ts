/**
 * The scripted model: a test (or the bench) calls `script.call("send_text", {...})` and gets back what
 * the client handed the model for that call. The fake model API asks `next()` for the tool call to
 * answer each client request with, and `deliver()`s the result it finds in the client's next request.
 * The two sides meet through promises, so nothing waits on a clock except the bounds named here.
 */

/** One tool result as the model received it. */
export interface Delivered {
  /** The tool's name as the client offered it (mcp__tui-tester__get_text, tui-tester_get_text, ...). */
  tool: string;
  /** The result's text parts joined with "\n", client wrappers included. */
  text: string;
  /** Image parts delivered with the result. */
  images: number;
  /** The client's error flag where its API has one (Anthropic is_error); undefined otherwise. */
  isError: boolean | undefined;
}

export interface Step {
  /** tui-tester's tool name, e.g. "send_text". */
  tool: string;
  args: Record<string, unknown>;
}

/** How long a queued step waits for the client to ask for it, or a result to come back. */
export const STEP_TIMEOUT_MS = 120_000;

interface Pending {
  step: Step;
  resolve(d: Delivered): void;
  reject(e: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

export class ToolScript {
  private readonly queue: Pending[] = [];
  private inFlight: Pending | null = null;
  private asking: ((step: Step | null) => void) | null = null;
  private finished = false;
  private failure: Error | null = null;

  /** Have the model call `tool`; resolves with what the client delivered back. */
  call(tool: string, args: Record<string, unknown> = {}): Promise<Delivered> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.finished) return Promise.reject(new Error(`call(${tool}) after finish()`));
    return new Promise<Delivered>((resolve, reject) => {
      const pending: Pending = { step: { tool, args }, resolve, reject };
      pending.timer = setTimeout(
        () => this.fail(new Error(`${tool}: no result from the client within ${STEP_TIMEOUT_MS} ms`)),
        STEP_TIMEOUT_MS,
      );
      this.queue.push(pending);
      this.handOver();
    });
  }

  /** No more calls: the model's next turn ends the conversation. */
  finish(): void {
    this.finished = true;
    this.handOver();
  }

  /** The client gave up (exited, timed out): every waiting call fails with this. */
  fail(error: Error): void {
    this.failure ??= error;
    for (const p of [this.inFlight, ...this.queue.splice(0)]) {
      if (!p) continue;
      clearTimeout(p.timer);
      p.reject(this.failure);
    }
    this.inFlight = null;
    this.asking?.(null);
    this.asking = null;
  }

  /** Server side: the step in flight (its result not delivered yet), for a client that repeats a request. */
  get current(): Step | null {
    return this.inFlight?.step ?? null;
  }

  /** Server side: the result of the step in flight arrived. */
  deliver(d: Delivered): void {
    const p = this.inFlight;
    if (!p) return;
    this.inFlight = null;
    clearTimeout(p.timer);
    p.resolve(d);
  }

  /** Server side: the in-flight step cannot be run by this client (its tool is not offered, say). */
  reject(error: Error): void {
    const p = this.inFlight;
    if (!p) return;
    this.inFlight = null;
    clearTimeout(p.timer);
    p.reject(error);
  }

  /** Server side: the next step to answer with, or null when the script is done (or failed). */
  next(): Promise<Step | null> {
    if (this.inFlight) return Promise.resolve(this.inFlight.step);
    return new Promise((resolve) => {
      this.asking = resolve;
      this.handOver();
    });
  }

  private handOver(): void {
    if (!this.asking) return;
    const ask = this.asking;
    const p = this.queue.shift();
    if (p) {
      this.asking = null;
      this.inFlight = p;
      ask(p.step);
    } else if (this.finished || this.failure) {
      this.asking = null;
      ask(null);
    }
  }
}

/** The name the client gave tui-tester's `tool`: mcp__tui-tester__x (Claude Code), tui-tester_x (opencode), tui-tester-x (Copilot). */
export function offeredName(names: readonly string[], tool: string): string | undefined {
  const re = new RegExp(`^(mcp__)?tui[-_]tester(__|_|-)${tool}$`);
  return names.find((n) => re.test(n));
}

/** Client notes the model gets inside a tool result that tui-tester did not write (Claude Code's reminders). */
export const withoutClientNotes = (text: string) =>
  text.replace(/\s*<system-reminder>[\s\S]*?<\/system-reminder>\s*/g, "\n").trim();
