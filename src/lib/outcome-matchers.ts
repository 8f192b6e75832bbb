/**
 * The matchers for what a program leaves behind, toHaveExited and toHaveFile (expect.ts installs
 * them): the same checks as the expect_exit and expect_file steps (exit-expect.ts, file-expect.ts).
 */
import { resolve } from "node:path";
import { TuiError } from "../errors.ts";
import { awaitExit, expectedExit, exitMismatch } from "./exit-expect.ts";
import { expectFile } from "./file-expect.ts";
import type { Mask } from "./mask.ts";
import type { CallSite } from "./snapshot-target.ts";
import type { Terminal } from "./terminal.ts";
import { DEFAULT_TIMEOUT_MS } from "./wait-options.ts";

interface MatcherTimeout {
  /** How long it may take. Default 5000. */
  timeoutMs?: number;
}

export interface ExitMatcherOptions extends MatcherTimeout {
  /** The exit code wanted; 0 when neither code nor signal is given. */
  code?: number;
  /** The signal that should have killed it ("SIGTERM" or "TERM"). */
  signal?: string;
}

export interface FileMatcherOptions extends MatcherTimeout {
  /** The file holds this text. */
  contains?: string;
  /** The file is exactly this text (after the masks). */
  equals?: string;
  /** Replaced by ▒ in both before `equals` compares: texts, RegExps (every match) or { row: line, col } rectangles. */
  mask?: Mask[];
}

type Result = { pass: boolean; message: () => string };

const screenText = async (t: Terminal) => `--- screen ---\n${(await t.screen()).text}`;

export async function toHaveExited(
  t: Terminal,
  isNot: boolean,
  _site: CallSite | undefined,
  options: ExitMatcherOptions = {},
): Promise<Result> {
  if (isNot)
    throw new TuiError(
      "INVALID_ARGUMENT",
      "toHaveExited cannot be negated.",
      "Check t.running for a program that should still run, or pass the code it should exit with.",
    );
  if (options.code !== undefined && options.signal !== undefined)
    throw new TuiError("INVALID_ARGUMENT", "toHaveExited takes code or signal, not both.", "Keep the one you expect.");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const outcome = await awaitExit(t.session, timeoutMs);
  if (outcome === null) {
    const text = await screenText(t);
    return {
      pass: false,
      message: () =>
        `expected the program ${expectedExit(options)} within ${timeoutMs} ms; it is still running\n${text}`,
    };
  }
  const mismatch = exitMismatch(options, outcome.exit);
  const text = mismatch === null ? "" : await screenText(t);
  return { pass: mismatch === null, message: () => `${mismatch}\n${text}` };
}

export async function toHaveFile(
  t: Terminal,
  isNot: boolean,
  _site: CallSite | undefined,
  path: string,
  options: FileMatcherOptions = {},
): Promise<Result> {
  if (isNot && (options.contains !== undefined || options.equals !== undefined))
    throw new TuiError(
      "INVALID_ARGUMENT",
      "not.toHaveFile takes no contains or equals: it passes when there is no file.",
      "Use expect(t).toHaveFile(path) with the text it should hold instead.",
    );
  try {
    await expectFile(t.session, {
      path: resolve(t.session.config.cwd, path),
      exists: !isNot,
      contains: options.contains,
      equals: options.equals,
      mask: options.mask,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    });
    return { pass: !isNot, message: () => "" };
  } catch (error) {
    if (!(error instanceof TuiError) || error.code !== "ASSERTION_FAILED") throw error;
    return { pass: isNot, message: () => error.message };
  }
}
