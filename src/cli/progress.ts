/**
 * Live progress on stderr: one line per finished test; on a TTY also a status line (spinner,
 * bar, running tests) redrawn in place below them.
 */
import { relative } from "node:path";
import type { Failure, TestResult } from "./run-test.ts";

const SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
const BAR_WIDTH = 20;

export interface Paint {
  green(s: string): string;
  red(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function paint(enabled: boolean): Paint {
  const sgr = (code: string) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { green: sgr("32"), red: sgr("31"), yellow: sgr("33"), dim: sgr("2"), bold: sgr("1") };
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** First line of a failure, for one-line summaries. */
export function failureLine(failure: Failure): string {
  const where =
    failure.step !== undefined
      ? `step ${failure.step} (${failure.stepType}${failure.stepLabel ? ` "${failure.stepLabel}"` : ""}): `
      : "";
  return `${where}${failure.message.split("\n")[0]}`;
}

export class Progress {
  private readonly running = new Set<string>();
  private finished = 0;
  private frame = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly p: Paint;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
    private readonly tty = out.isTTY === true && process.env.TERM !== "dumb",
    private readonly cwd = process.cwd(),
  ) {
    // https://no-color.org: a non-empty NO_COLOR turns colour off
    this.p = paint(this.tty && !process.env.NO_COLOR);
    if (this.tty) this.timer = setInterval(() => this.redraw(), 80);
  }

  get colours(): Paint {
    return this.p;
  }

  line(text: string): void {
    this.clearStatus();
    this.out.write(`${text}\n`);
    this.redraw();
  }

  started(title: string): void {
    this.running.add(title);
    this.redraw();
  }

  retrying(title: string, attempt: number, max: number, failure?: Failure): void {
    this.line(
      this.p.yellow(
        `  ↻ ${title}: attempt ${attempt} of ${max}${failure ? ` (${failureLine(failure).slice(0, 160)})` : ""}`,
      ),
    );
  }

  finishedTest(result: TestResult): void {
    this.running.delete(result.title);
    this.finished++;
    const time = this.p.dim(`(${formatDuration(result.durationMs)})`);
    if (result.status === "skipped") this.line(this.p.dim(`  - ${result.title} (skipped)`));
    else if (result.status === "passed")
      this.line(
        `  ${this.p.green("✓")} ${result.title} ` +
          `${time}${result.flaky ? this.p.yellow(` flaky: passed on attempt ${result.attempts}`) : ""}`,
      );
    else
      this.line(
        `  ${this.p.red("✗")} ${result.title} ${time}\n` +
          `      ${this.p.red(failureLine(result.failure!).slice(0, 200))}`,
      );
    for (const note of result.snapshots) {
      if (note.status === "written" || note.status === "updated")
        this.line(
          this.p.yellow(
            `      ${note.status === "written" ? "wrote new" : "updated"} snapshot ${relative(this.cwd, note.file)}`,
          ),
        );
    }
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.clearStatus();
  }

  private clearStatus(): void {
    if (this.tty) this.out.write("\r\x1b[K");
  }

  private redraw(): void {
    if (!this.tty || this.timer === undefined) return;
    const filled = Math.round((this.finished / Math.max(1, this.total)) * BAR_WIDTH);
    const bar = `${"█".repeat(filled)}${"░".repeat(BAR_WIDTH - filled)}`;
    const names = [...this.running].join(", ");
    const text =
      `${SPINNER[this.frame++ % SPINNER.length]} ${bar} ` +
      `${this.finished}/${this.total}${names ? ` · ${names}` : ""}`;
    const width = Math.max(20, (this.out.columns || 80) - 1);
    this.out.write(`\r\x1b[K${[...text].slice(0, width).join("")}`);
  }
}
