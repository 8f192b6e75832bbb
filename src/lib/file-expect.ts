/**
 * File checks: a file the program writes exists (or does not), contains a text, equals a text, or
 * matches a golden file, with the masks screen goldens use (a regex match on a line becomes one ▒, a
 * region masks lines and columns). The check runs again whenever something may have changed (the
 * file's directory changed, the screen changed, the program exited) until it holds or timeoutMs
 * passes. Shared by run_script's expect_file step and the bun:test matcher toHaveFile.
 */
import { mkdir, rename, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { cancelled, TuiError } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { watchChanges } from "./change-watch.ts";
import { rowDiff, type GoldenUpdate } from "./golden.ts";
import { maskRows, type Mask } from "./mask.ts";

/** Files larger than this are not read (every check is bounded): the check fails saying so. */
export const MAX_CHECKED_FILE_BYTES = 4 * 1024 * 1024;
/** Lines of a file shown when it does not contain the text. */
const SHOWN_LINES = 20;

export interface FileExpectation {
  /** Absolute path. */
  path: string;
  /** false: pass when there is no file. Default true. */
  exists?: boolean;
  contains?: string;
  equals?: string;
  /** A golden file holding the expected content; written when missing (update "missing") or always ("all"). */
  golden?: { file: string; update: GoldenUpdate; hints: { missing: string; mismatch: string } };
  mask?: Mask[];
  timeoutMs: number;
  abort?: AbortSignal;
}

export type FileStatus = "absent" | "matched" | "written" | "updated" | "unchanged";

export interface FileOutcome {
  status: FileStatus;
  bytes?: number;
  waitedMs: number;
}

/** A failed look keeps its words, so the error is made once, with the time waited in it. */
type Look =
  | { ok: true; status: FileStatus; bytes?: number }
  | { ok: false; message: string; hint: string; details: Record<string, unknown> };

/** Check now and after every change until it holds or the time is up; throws ASSERTION_FAILED naming what differed. */
export async function expectFile(session: Session | undefined, e: FileExpectation): Promise<FileOutcome> {
  const started = performance.now();
  const deadline = started + e.timeoutMs;
  using changes = watchChanges(session, e.path);
  for (;;) {
    if (e.abort?.aborted) throw cancelled("The file check");
    const look = await lookAt(e);
    const left = deadline - performance.now();
    const waitedMs = Math.round(performance.now() - started);
    if (look.ok) return { status: look.status, ...(look.bytes !== undefined ? { bytes: look.bytes } : {}), waitedMs };
    if (left <= 0) {
      const message = e.timeoutMs > 0 ? withWait(look.message, waitedMs) : look.message;
      throw new TuiError("ASSERTION_FAILED", message, look.hint, look.details);
    }
    await changes.next(left, e.abort);
  }
}

/** "File x is missing." -> "File x is missing (checked for 300 ms).": the wait goes at the end of the first line. */
function withWait(message: string, ms: number): string {
  const cut = message.indexOf("\n");
  const head = cut < 0 ? message : message.slice(0, cut);
  const end = /[.:]$/.test(head) ? head.length - 1 : head.length;
  return `${head.slice(0, end)} (checked for ${ms} ms)${head.slice(end)}${cut < 0 ? "" : message.slice(cut)}`;
}

async function lookAt(e: FileExpectation): Promise<Look> {
  const fail = (message: string, hint: string, details: Record<string, unknown> = {}): Look => ({
    ok: false,
    message,
    hint,
    details: { path: e.path, ...details },
  });
  const info = await stat(e.path).catch(() => null);
  if (e.exists === false) {
    return info === null
      ? { ok: true, status: "absent" }
      : fail(`File ${e.path} exists (${info.size} bytes); expected no file there.`, "Check what wrote it.", {
          exists: true,
        });
  }
  if (info === null) return fail(`File ${e.path} is missing.`, "Check the path (relative to the session's cwd).");
  if (!info.isFile()) return fail(`${e.path} is not a regular file.`, "Point path at a file.");
  if (info.size > MAX_CHECKED_FILE_BYTES)
    return fail(
      `File ${e.path} is ${info.size} bytes; expect_file reads at most ${MAX_CHECKED_FILE_BYTES}.`,
      "Check a smaller file, or only that it exists.",
    );
  const content = await Bun.file(e.path).text();
  const bytes = info.size;
  if (e.contains !== undefined && !content.includes(e.contains)) {
    const lines = content.split("\n");
    const shown = lines.slice(0, SHOWN_LINES).map((line) => `  |${line.slice(0, 300)}|`);
    if (lines.length > SHOWN_LINES) shown.push(`  ... and ${lines.length - SHOWN_LINES} more line(s)`);
    return fail(
      `File ${e.path} does not contain ${JSON.stringify(e.contains.slice(0, 200))}; it has ${bytes} bytes:\n${shown.join("\n")}`,
      "Check the text against the file's lines above.",
      { contains: false },
    );
  }
  if (e.equals !== undefined) {
    const diff = differs(e.equals, content, e.mask, "expected");
    if (diff)
      return fail(
        `File ${e.path} differs from the expected text in ${diff.count} line(s):\n${diff.text}`,
        "Fix the program or the expected text.",
        { changedLines: diff.lines },
      );
  }
  if (e.golden) return compareToGolden(e, content, bytes, fail);
  return { ok: true, status: "matched", bytes };
}

async function compareToGolden(
  e: FileExpectation,
  content: string,
  bytes: number,
  fail: (message: string, hint: string, details?: Record<string, unknown>) => Look,
): Promise<Look> {
  const golden = e.golden!;
  const handle = Bun.file(golden.file);
  const stored = (await handle.exists()) ? await handle.text() : null;
  if (stored === null && golden.update === "none")
    return fail(`No golden file ${golden.file} for ${e.path}.`, golden.hints.missing, { status: "missing" });
  if (stored === null || golden.update === "all") {
    const unchanged = stored === content;
    if (!unchanged) await writeAtomically(golden.file, content);
    return { ok: true, status: stored === null ? "written" : unchanged ? "unchanged" : "updated", bytes };
  }
  const diff = differs(stored, content, e.mask, "golden");
  if (!diff) return { ok: true, status: "matched", bytes };
  return fail(
    `File ${e.path} differs from its golden in ${diff.count} line(s).\n  golden: ${golden.file}\n${diff.text}`,
    golden.hints.mismatch,
    { status: "mismatch", changedLines: diff.lines },
  );
}

/** A numbered line diff of the masked texts, or null when they are equal. */
function differs(expected: string, actual: string, mask: Mask[] | undefined, label: string) {
  let want = expected.split("\n");
  let got = actual.split("\n");
  if (mask?.length) {
    const cols = Math.max(0, ...want.map((l) => l.length), ...got.map((l) => l.length));
    want = maskRows(want, mask, cols);
    got = maskRows(got, mask, cols);
  }
  if (want.length === got.length && want.every((line, i) => line === got[i])) return null;
  const diff = rowDiff(want, got, 1, false, { unit: "line", expected: label, actual: "file" });
  return { count: diff.changedRows.length, lines: diff.changedRows.map((r) => r.row), text: diff.text };
}

async function writeAtomically(file: string, content: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  await Bun.write(temp, content);
  await rename(temp, file);
}
