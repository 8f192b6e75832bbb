/**
 * JS RegExp for the patterns RE2 cannot express (lookaround, backreferences), run in a Worker with
 * a deadline. A backtracking regex cannot be interrupted on its own thread, so it runs on another:
 * past the deadline the worker is terminated (the VM stops it at its next interrupt check) and the
 * caller gets REGEX_TIMEOUT instead of a frozen event loop.
 */
import { TuiError } from "../errors.ts";

/** The worker's whole program; inlined so the compiled binary needs no extra entry point. */
const WORKER_SOURCE = `
self.onmessage = (event) => {
  const { id, source, flags, haystack } = event.data;
  try {
    const m = new RegExp(source, flags).exec(haystack);
    self.postMessage({ id, match: m === null ? null : Array.from(m, (g) => g ?? ""),\
 index: m === null ? -1 : m.index });
  } catch (error) {
    self.postMessage({ id, error: String(error) });
  }
};`;

let workerUrl: string | undefined;

export interface FallbackMatch {
  match: string[];
  index: number;
}

interface Reply {
  id: number;
  match?: string[] | null;
  index?: number;
  error?: string;
}

/** One worker per fallback pattern, started on first use; one exec in flight at a time. */
export class RegexFallback implements Disposable {
  private worker: Worker | undefined;
  private seq = 0;
  private busy: Promise<unknown> = Promise.resolve();

  constructor(
    readonly source: string,
    readonly flags: string,
  ) {}

  exec(haystack: string, budgetMs: number): Promise<FallbackMatch | null> {
    const run = this.busy.then(() => this.run(haystack, budgetMs));
    this.busy = run.catch(() => undefined);
    return run;
  }

  [Symbol.dispose](): void {
    this.worker?.terminate();
    this.worker = undefined;
  }

  private run(haystack: string, budgetMs: number): Promise<FallbackMatch | null> {
    workerUrl ??= URL.createObjectURL(new Blob([WORKER_SOURCE], { type: "application/javascript" }));
    const worker = (this.worker ??= new Worker(workerUrl));
    // An idle worker must not keep the server alive at exit.
    worker.unref();
    const id = ++this.seq;
    return new Promise<FallbackMatch | null>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          worker.removeEventListener("message", onMessage);
          if (this.worker === worker) this.worker = undefined;
          worker.terminate();
          reject(
            new TuiError(
              "REGEX_TIMEOUT",
              `The regex /${this.source.slice(0, 100)}/ ran longer than ` +
                `${Math.round(budgetMs)} ms on ${haystack.length} characters and was stopped ` +
                `(catastrophic backtracking).`,
              "Drop lookaround and backreferences so the linear-time engine (RE2) runs it, or " +
                "avoid nested quantifiers such as (a+)+.",
            ),
          );
        },
        Math.max(1, budgetMs),
      );
      const onMessage = (event: MessageEvent<Reply>) => {
        if (event.data.id !== id) return;
        clearTimeout(timer);
        worker.removeEventListener("message", onMessage);
        const reply = event.data;
        if (reply.error !== undefined)
          reject(
            new TuiError(
              "INVALID_REGEX",
              `Regex /${this.source.slice(0, 100)}/ failed: ${reply.error}`,
              "Fix the pattern.",
            ),
          );
        else resolve(reply.match ? { match: reply.match, index: reply.index ?? 0 } : null);
      };
      worker.addEventListener("message", onMessage);
      worker.postMessage({ id, source: this.source, flags: this.flags, haystack });
    });
  }
}
