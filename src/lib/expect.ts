/**
 * Matchers for bun:test, installed by `import "tui-tester/expect"`. They wait, as Playwright's
 * web-first assertions do: each looks again on every screen update until it holds or timeoutMs
 * (default 5000) passes, so no sleep is needed after an input. Always `await` them.
 *
 * Why they are not plain expect.extend matchers: bun:test (1.4) runs an async custom matcher by
 * spinning the event loop inside the matcher call, and in that loop Worker messages are not
 * delivered (oven-sh/bun#10636, oven-sh/bun#31462). A session's output arrives from its reader Worker, so such
 * a matcher could never see new output. Each matcher here is a method on bun's Expect prototype
 * that returns a real Promise; a tiny sync matcher registered with expect.extend hands it the
 * received value and `.not` (and counts the assertion).
 *
 *   await expect(t).toShowText("Setup");
 *   await expect(t).not.toShowText(/error/i);
 *   await expect(t).toHaveHighlight("Display options");
 *   await expect(t).toMatchScreenSnapshot("setup", { mask: [/\d+:\d+:\d+/] });
 *   await expect(t).toHaveExited({ code: 0 });
 *   await expect(t).toHaveFile("out.txt", { contains: "saved" });
 */
import { expect } from "bun:test";
import { TuiError } from "../errors.ts";
import { compileMatcher } from "../session/matcher.ts";
import type { Session } from "../session/session.ts";
import { watchChanges } from "./change-watch.ts";
import type { Highlight } from "../term/types.ts";
import { compareGolden, type GoldenRegion } from "./golden.ts";
import { toHaveExited, toHaveFile, type ExitMatcherOptions, type FileMatcherOptions } from "./outcome-matchers.ts";
import type { Mask } from "./mask.ts";
import { type CallSite, callerOf, defaultName, goldenFile, updateMode } from "./snapshot-target.ts";
import { Terminal } from "./terminal.ts";
import { DEFAULT_TIMEOUT_MS, type TextPattern, toWaitOptions } from "./wait-options.ts";

export type { ExitMatcherOptions, FileMatcherOptions } from "./outcome-matchers.ts";

export interface ScreenMatcherOptions {
  /** How long the screen may take. Default 5000. */
  timeoutMs?: number;
}

export interface ShowTextOptions extends ScreenMatcherOptions {
  /** Treat a string pattern as a RegExp source. */
  regex?: boolean;
}

export interface ScreenSnapshotOptions extends ScreenMatcherOptions {
  /** Replaced by ▒ before comparing: texts, RegExps (every match) or rectangles. */
  mask?: Mask[];
  /** "ansi" keeps colours and attributes as SGR codes. Default "text". */
  format?: "text" | "ansi";
  /** Compare only this rectangle (0-based). */
  region?: GoldenRegion;
}

declare module "bun:test" {
  interface Matchers<T> {
    /** The screen shows the text (a substring, or a RegExp), now or within timeoutMs. */
    toShowText(pattern: TextPattern, options?: ShowTextOptions): Promise<void>;
    /** Some highlight (inverse, coloured background or bold run: a selection, a focused button) contains the text. */
    toHaveHighlight(text: string, options?: ScreenMatcherOptions): Promise<void>;
    /**
     * The screen equals the golden file __snapshots__/<test file>/<name>.txt next to the test file.
     * A missing golden is written (not in CI); `bun test -u` rewrites them.
     */
    toMatchScreenSnapshot(name?: string, options?: ScreenSnapshotOptions): Promise<void>;
    /** The program exits (within timeoutMs) with the code (default 0), or is killed by the signal. */
    toHaveExited(options?: ExitMatcherOptions): Promise<void>;
    /**
     * The file (relative to the terminal's cwd) exists, and holds / equals the text, now or within timeoutMs;
     * `.not` passes when there is no file.
     */
    toHaveFile(path: string, options?: FileMatcherOptions): Promise<void>;
  }
}

type Result = { pass: boolean; message: () => string };
type Matcher = (t: Terminal, isNot: boolean, site: CallSite | undefined, ...args: never[]) => Promise<Result>;

/** Look now and on every screen update until `holds` returns the wanted answer or the time is up; the last answer. */
async function eventually(
  session: Session,
  wanted: boolean,
  timeoutMs: number,
  holds: () => Promise<boolean>,
): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  // armed before the first look: an update between a look and the wait after it wakes the wait at once
  using changes = watchChanges(session);
  for (;;) {
    const now = await holds();
    const left = deadline - performance.now();
    if (now === wanted || left <= 0 || !session.running) return now;
    await changes.next(left);
  }
}

const screenText = async (t: Terminal) => `--- screen ---\n${(await t.screen()).text}`;

async function toShowText(
  t: Terminal,
  isNot: boolean,
  _site: CallSite | undefined,
  pattern: TextPattern,
  options: ShowTextOptions = {},
): Promise<Result> {
  const wait = toWaitOptions(pattern, options);
  using matcher = compileMatcher({ ...wait, pattern: wait.pattern ?? "" });
  const shown = async () => {
    const view = await t.screen();
    return (await matcher.find(view.text, { screenCols: view.cols })) !== null;
  };
  const pass = await eventually(t.session, !isNot, wait.timeoutMs, shown);
  const what = pattern instanceof RegExp ? String(pattern) : JSON.stringify(pattern);
  const text = await screenText(t);
  return {
    pass,
    message: () => `expected the screen ${isNot ? "not " : ""}to show ${what} within ${wait.timeoutMs} ms\n${text}`,
  };
}

async function toHaveHighlight(
  t: Terminal,
  isNot: boolean,
  _site: CallSite | undefined,
  text: string,
  options: ScreenMatcherOptions = {},
): Promise<Result> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let highlights: Highlight[] = [];
  const highlighted = async () => {
    highlights = (await t.screen()).highlights;
    return highlights.some((h) => h.text.includes(text));
  };
  const pass = await eventually(t.session, !isNot, timeoutMs, highlighted);
  const list = highlights.map((h) => `  row ${h.row} (${h.kind}): ${JSON.stringify(h.text)}`).join("\n") || "  (none)";
  return {
    pass,
    message: () =>
      `expected ${isNot ? "no" : "a"} highlight containing ${JSON.stringify(text)} within ${timeoutMs} ms; ` +
      `highlights:\n${list}`,
  };
}

async function toMatchScreenSnapshot(
  t: Terminal,
  isNot: boolean,
  site: CallSite | undefined,
  name?: string,
  options: ScreenSnapshotOptions = {},
): Promise<Result> {
  if (isNot)
    throw new TuiError(
      "INVALID_ARGUMENT",
      "toMatchScreenSnapshot cannot be negated.",
      "Use expect(t).not.toShowText(...) for what must not be on the screen.",
    );
  if (site === undefined)
    throw new TuiError(
      "INTERNAL",
      "Could not tell which test file called toMatchScreenSnapshot.",
      "Call it from a test file.",
    );
  const snapshotName = name ?? defaultName(site) ?? `line-${site.line}`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(snapshotName)) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `Snapshot name "${snapshotName}" is not a file name.`,
      "Use letters, digits, '.', '_' and '-' (at most 100).",
    );
  }
  const format = options.format ?? "text";
  const file = goldenFile(site, snapshotName, format === "ansi" ? "ansi" : "txt");
  const hints = {
    missing: "Run bun test --update-snapshots to write it (CI never writes missing goldens).",
    mismatch: "If the new screen is right, run bun test --update-snapshots.",
  };
  const golden = {
    name: snapshotName,
    file,
    format,
    region: options.region,
    mask: options.mask,
    update: updateMode(),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    hints,
  };
  try {
    await compareGolden(t.session, golden);
    return { pass: true, message: () => "" };
  } catch (error) {
    if (!(error instanceof TuiError) || error.code !== "ASSERTION_FAILED") throw error;
    return { pass: false, message: () => `${error.message}\n${error.hint ?? ""}` };
  }
}

const matchers: Record<string, Matcher> = {
  toShowText,
  toHaveHighlight,
  toMatchScreenSnapshot,
  toHaveExited,
  toHaveFile,
};

let handed: { received: unknown; isNot: boolean } | undefined;
expect.extend({
  /** Hands the received value and `.not` to the matcher method that called it; always passes. */
  __tuiTesterReceived(received: unknown) {
    handed = { received, isNot: this.isNot };
    return { pass: !this.isNot, message: () => "" };
  },
});

const expectPrototype = Object.getPrototypeOf(expect(undefined)) as Record<string, unknown>;
for (const [name, matcher] of Object.entries(matchers)) {
  Object.defineProperty(expectPrototype, name, {
    configurable: true,
    writable: true,
    value(this: { __tuiTesterReceived(): void }, ...args: never[]): Promise<void> {
      // Taken now, synchronously: the caller's frame (which test file) and a stack that points at it.
      const calledFrom = new Error();
      this.__tuiTesterReceived();
      const { received, isNot } = handed!;
      handed = undefined;
      return run(name, matcher, received, isNot, calledFrom, args);
    },
  });
}

async function run(
  name: string,
  matcher: Matcher,
  received: unknown,
  isNot: boolean,
  calledFrom: Error,
  args: never[],
): Promise<void> {
  if (!(received instanceof Terminal)) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `expect(...).${name} needs a Terminal from launch(), got ${typeof received}.`,
      "Pass the terminal itself: expect(t).",
    );
  }
  const result = await matcher(received, isNot, callerOf(calledFrom.stack), ...args);
  if (result.pass !== isNot) return;
  const failure = new TuiError(
    "ASSERTION_FAILED",
    `expect(terminal)${isNot ? ".not" : ""}.${name}(): ${result.message()}`,
  );
  // Point the failure at the test's line, not at this module.
  failure.stack = `${failure.name}: ${failure.message}\n${(calledFrom.stack ?? "").split("\n").slice(1).join("\n")}`;
  throw failure;
}
