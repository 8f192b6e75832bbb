/** The library's Terminal on real PTY sessions running the fixture apps: inputs, waits, reads, artifacts, errors. */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as v from "valibot";
import { launch, type Terminal, TuiError } from "../../src/lib/index.ts";
import { findLibfaketime } from "../../src/session/fake-clock.ts";
import type { ToolContext } from "../../src/tools/define.ts";
import { sendKeysTool } from "../../src/tools/input-tools.ts";
import { waitForTextTool } from "../../src/tools/wait-tools.ts";
import { startOptions, testRegistry } from "../registry-helpers.ts";

const FIXTURES = join(import.meta.dir, "..", "fixtures");
const bun = process.execPath;
const fixture = (name: string, ...args: string[]) => launch(bun, { args: [join(FIXTURES, name), ...args] });

async function rejection(promise: Promise<unknown>): Promise<TuiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TuiError);
  expect(error).toBeInstanceOf(Error);
  return error as TuiError;
}

describe("inputs return the input tools' before/after/diff and settle facts", () => {
  test("press encodes from the live modes and waits inline for the answer", async () => {
    await using t = await fixture("echo-keys.ts");
    await t.waitForText("READY");
    const result = await t.press("up", { waitFor: "KEY 1b5b41" });
    expect(result).toMatchObject({ keyCount: 1, bytesSent: 3, sessionId: t.id, waitFor: { matched: true } });
    expect(result.summary).toStartWith("Sent 1 key(s), 3 bytes");
    expect(result.screen!.settle).toBe("waitFor");
    expect(result.screen!.before!.text).not.toContain("KEY");
    expect(result.screen!.after!.text).toContain("KEY 1b5b41");
    expect(result.screen!.diff.changedLines.map((line) => line.after)).toContain("KEY 1b5b41");
    // without waitFor, the settle facts: here a fixed settle, and what it waited
    const typed = await t.type("ab", { waitAfterMs: 100 });
    expect(typed.screen).toMatchObject({ settle: "fixed", waitAfterMs: 100 });
    expect(typed.screen!.waitedMs).toBeNumber();
  });

  test("type with cps types a character at a time; paste brackets when the app asked for it", async () => {
    await using t = await fixture("paste-app.ts", "--bracketed");
    await t.waitForText("READY bracketed=true");
    const pasted = await t.paste("hi", { waitFor: /IN 1b5b3230307e6869/ });
    expect(pasted).toMatchObject({ bracketed: true, bytesSent: 14 });
    const typed = await t.type("xy", { cps: 200, waitFor: "7879" });
    expect(typed).toMatchObject({ chars: 2, cps: 200 });
  });

  test("mouse clicks the middle of a text in the app's tracking mode; resize re-lays out", async () => {
    await using t = await fixture("mouse-app.ts", "1000,1006");
    await t.waitForText("READY");
    const click = await t.mouse({ action: "click", text: "CLICK ME" }, { waitFor: "EV 2" });
    expect(click).toMatchObject({
      action: "click",
      at: { row: 5, col: 13 },
      events: ["press", "release"],
      tracking: "vt200",
      encoding: "sgr",
    });
    const resized = await t.resize(60, 20, { captureScreen: false });
    expect(resized).toMatchObject({ cols: 60, rows: 20, from: { cols: 80, rows: 24 } });
    expect([t.cols, t.rows]).toEqual([60, 20]);
  });

  test("captureScreen: false sends without screens; screenDetail diff leaves the screens out", async () => {
    await using t = await fixture("echo-keys.ts");
    await t.waitForText("READY");
    expect((await t.press("a", { captureScreen: false })).screen).toBeUndefined();
    await t.waitForText("KEY 61");
    const diff = await t.press("b", { screenDetail: "diff", waitFor: "KEY 62" });
    expect(diff.screen!.before).toBeUndefined();
    expect(diff.screen!.diff.identical).toBe(false);
  });
});

test("press returns the fields send_keys returns, from the same code", async () => {
  await using registry = testRegistry();
  const session = await registry.start(startOptions(bun, [join(FIXTURES, "echo-keys.ts")]));
  await using t = await fixture("echo-keys.ts");
  await t.waitForText("READY");
  const ctx = {
    sessions: registry,
    config: { screenDetail: "full" },
    signal: new AbortController().signal,
  } as unknown as ToolContext;
  await waitForTextTool.run(v.parse(waitForTextTool.input, { sessionId: session.id, pattern: "READY" }), ctx);
  const tool = await sendKeysTool.run(
    v.parse(sendKeysTool.input, { sessionId: session.id, keys: "up", waitFor: { pattern: "KEY 1b5b41" } }),
    ctx,
  );
  const lib = await t.press("up", { waitFor: "KEY 1b5b41" });
  const { summary, ...fields } = lib;
  expect(Object.keys(fields).sort()).toEqual(Object.keys(tool.data).sort());
  const screen = tool.data.screen as Record<string, unknown>;
  // `held` (the first-input gate) is a fact of each session's start-up timing, not of the code path
  const keys = (o: object) =>
    Object.keys(o)
      .filter((k) => k !== "held")
      .sort();
  expect(keys(lib.screen!)).toEqual(keys(screen));
  expect(summary.replace(/\d+ ms/g, "N ms")).toBe(tool.summary.replace(/\d+ ms/g, "N ms"));
});

describe("clock and after: input", () => {
  test.skipIf(findLibfaketime() === null)("clock sets the program's wall clock through libfaketime", async () => {
    const date = (format: string) => ["-c", `date -u ${format}; sleep 30`];
    await using frozen = await launch("bash", { args: date("+%FT%T"), clock: new Date("2030-05-06T07:08:09Z") });
    await frozen.waitForText("2030-05-06T07:08:09");
    const noon = "2031-01-02T12:00:00Z";
    await using ticking = await launch("bash", { args: date("+%F"), clock: noon, freezeClock: false });
    await ticking.waitForText("2031-01-02");
  });

  test('waitForText with after: "input" skips text that was on the screen before the input', async () => {
    await using t = await fixture("echo-keys.ts");
    await t.waitForText("READY");
    await t.press("a", { waitFor: "KEY 61" });
    await t.press("b", { captureScreen: false });
    const found = await t.waitForText(/KEY 6\d/, { after: "input" });
    expect(found.match).toEqual(["KEY 62"]);
  });
});

describe("reads", () => {
  test("screen, cells, scrollback and raw", async () => {
    await using t = await launch("bash", {
      args: ["-c", "printf 'line %s\\n' $(seq 1 40); printf '\\033[7mSEL\\033[0m'; sleep 30"],
      cols: 40,
      rows: 10,
    });
    const { screen } = await t.waitForText("SEL");
    expect(screen.lines).toHaveLength(10);
    expect(screen.highlights).toContainEqual(expect.objectContaining({ text: "SEL", kind: "inverse" }));
    const view = await t.screen();
    expect(view.cursor).toMatchObject({ row: 9, col: 3 });
    const cells = await t.cells({ row: 9, rows: 1 });
    expect(cells.rows[0]?.[0]).toMatchObject({ text: "SEL", attrs: ["inverse"] });
    const history = await t.scrollback();
    expect(history.lines).toContain("line 1");
    expect(t.raw()).toContain("\x1b[7mSEL");
  });
});

describe("errors are TuiErrors with a code and a hint, thrown as Errors", () => {
  test("a missed wait says what was on the screen", async () => {
    await using t = await fixture("echo-keys.ts");
    await t.waitForText("READY");
    const error = await rejection(t.waitForText("NEVER", { timeoutMs: 100 }));
    expect(error.code).toBe("WAIT_TIMEOUT");
    expect(error.message).toContain("--- screen ---\nREADY");
    expect(error.hint).toBeString();
    const inline = await rejection(t.press("x", { waitFor: { pattern: "NEVER", timeoutMs: 100 } }));
    expect(inline.code).toBe("WAIT_TIMEOUT");
    expect(inline.message).toContain("--- screen ---\nREADY");
    // the fix says where the screen is: quoted above, in the message
    expect(inline.hint).toStartWith("The screen at the timeout is above;");
  });

  test("a bad key name sends nothing; a bad regex fails before waiting", async () => {
    await using t = await fixture("echo-keys.ts");
    await t.waitForText("READY");
    expect((await rejection(Promise.try(() => t.press(["a", "ctrl+nope"])))).code).toBe("INVALID_KEY");
    expect((await rejection(Promise.try(() => t.waitForText("(", { regex: true })))).code).toBe("INVALID_REGEX");
    // the next key is the first the app sees: "a" never went
    await t.press("b", { waitFor: "KEY 62" });
    expect(t.raw()).not.toContain("KEY 61");
  });

  test("SPAWN_FAILED for a missing program, INVALID_ARGUMENT for a bad size, SESSION_EXITED after exit", async () => {
    expect((await rejection(launch("no-such-program-tui-tester"))).code).toBe("SPAWN_FAILED");
    expect((await rejection(launch("bash", { cols: 0 }))).code).toBe("INVALID_ARGUMENT");
    await using t = await fixture("echo-keys.ts");
    await t.waitForText("READY");
    await t.press("q", { captureScreen: false });
    expect(await t.waitForExit()).toMatchObject({ exitCode: 0, signal: null });
    expect(t.exitInfo()).toMatchObject({ exitCode: 0 });
    const exited = await rejection(t.press("a"));
    expect(exited.code).toBe("SESSION_EXITED");
    // an exited terminal's last screen stays readable
    expect((await t.screen()).text).toContain("KEY 71");
  });
});

describe("artifacts and the end", () => {
  test("screenshot and recording files", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tui-tester-lib-"));
    try {
      await using t = await launch("bash", { args: ["-c", "echo hello; sleep 30"], record: join(dir, "run.cast") });
      await t.waitForText("hello");
      const shot = await t.screenshot({ path: join(dir, "shot.svg"), format: "svg" });
      expect(shot).toMatchObject({ format: "svg", path: join(dir, "shot.svg") });
      expect(readFileSync(shot.path, "utf8")).toContain("hello");
      const stats = t.stopRecording();
      expect(stats.events).toBeGreaterThan(0);
      expect(readFileSync(join(dir, "run.cast"), "utf8")).toContain("hello");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("await using closes the program; close is idempotent", async () => {
    let kept: Terminal | undefined;
    {
      await using t = await launch("bash", { args: ["-c", "sleep 60"] });
      kept = t;
      expect(t.running).toBe(true);
    }
    expect(kept.running).toBe(false);
    expect(kept.exitInfo()?.signal).not.toBeNull();
    expect(alive(kept.pid)).toBe(false);
    expect((await kept.close()).exit).toEqual(kept.exitInfo()!);
    expect(existsSync(`/proc/${kept.pid}`)).toBe(false);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
