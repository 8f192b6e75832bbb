/** save_test's pieces without a PTY: new text since an input, wait text choice, masks, human input, shards. */
import { movedHighlight } from "../../src/session/moved-highlight.ts";
import { describe, expect, test } from "bun:test";
import { HIDDEN_CHAR, newTextOnly, type Viewport } from "../../src/session/baseline.ts";
import { decodeHumanInput } from "../../src/session/human-input.ts";
import { chooseWaitText, volatileSpans } from "../../src/session/stable-text.ts";
import { LEGACY_MODES } from "../../src/keys/index.ts";
import { MASK_CHAR, maskRows } from "../../src/lib/mask.ts";
import { planTest, suggestMasks } from "../../src/script/test-from-history.ts";
import { toLibMasks } from "../../src/script/expect-snapshot.ts";
import { repeatTests, shardTests } from "../../src/cli/shard.ts";
import type { TestCase } from "../../src/cli/load.ts";

const screen = (lines: string[], top = 0, cursorRow?: number, alt = false): Viewport => ({
  top,
  screen: alt ? "alternate" : "main",
  lines,
  ...(cursorRow === undefined ? {} : { cursorRow }),
});

describe("new text since an input", () => {
  test("text that stayed at its place is hidden; a label drawn again is not new (htop's F2Setup)", () => {
    const before = screen(["CPU 3%", "F1Help  F2Setup"], 0, 0, true);
    const after = screen(["Setup", "F1Help  F2Done"], 0, 0, true);
    const shown = newTextOnly(before, after);
    expect(shown[0]).toBe("Setup");
    expect(shown[1]).toBe(`${HIDDEN_CHAR.repeat(6)}  F2Done`);
    // a new word is new even where an old one had a letter in the same place
    expect(newTextOnly(screen(["Help"], 0, 0, true), screen(["Hello"], 0, 0, true))).toEqual(["Hello"]);
  });

  test("on the main screen places are buffer lines: after a scroll, the new prompt is new and the old one is not", () => {
    const before = screen(["t$ ls", "a", "t$"], 10);
    const after = screen(["a", "t$ echo hi", "hi", "t$"], 11);
    const shown = newTextOnly(before, after);
    expect(shown[0]).toBe(HIDDEN_CHAR);
    expect(shown[1]!.startsWith(HIDDEN_CHAR.repeat(2))).toBe(true);
    expect(shown[3]).toBe("t$");
  });

  test("switching to the alternate screen makes everything new", () => {
    expect(newTextOnly(screen(["same"]), screen(["same"], 0, 0, true))).toEqual(["same"]);
  });
});

describe("the wait text save_test chooses", () => {
  test("the new prompt on the cursor's row, not the echo of the typed command", () => {
    const before = screen(["t$"], 0);
    const after = screen(["t$ echo hello", "hello", "t$"], 0, 2);
    expect(chooseWaitText(before, [after, after], "echo hello\r")).toBe("t$");
  });

  test("never a clock or text that changed between two reads", () => {
    const before = screen([""], 0, 0, true);
    const first = screen(["12:00:01", "Uptime 4"], 0, 0, true);
    const second = screen(["12:00:02", "Uptime 5"], 0, 0, true);
    expect(chooseWaitText(before, [first, second], "")).toBeUndefined();
    const titled = [screen(["12:00:01  Setup"], 0, 0, true), screen(["12:00:02  Setup"], 0, 0, true)];
    expect(chooseWaitText(before, titled, "")).toBe("Setup");
  });

  test("nothing when the input changed no text", () => {
    const same = screen(["[ OK ]  Cancel"], 0, 0, true);
    expect(chooseWaitText(same, [same, same], "")).toBeUndefined();
  });
});

describe("masks", () => {
  test("a regex mask makes a value of another width read the same; a region mask hides its cells one for one", () => {
    const regex = toLibMasks([{ regex: String.raw`\d+ms` }]);
    expect(maskRows(["took 5ms, done"], regex, 40)).toEqual([`took ${MASK_CHAR}, done`]);
    expect(maskRows(["took 125ms, done"], regex, 40)).toEqual([`took ${MASK_CHAR}, done`]);
    const region = toLibMasks([{ region: { row: 0, col: 5, rows: 1, cols: 3 } }]);
    expect(maskRows(["pid: 123 ok"], region, 20)).toEqual([`pid: ${MASK_CHAR.repeat(3)} ok`]);
    // masking text that is already masked changes nothing (goldens are masked again before comparing)
    const clock = toLibMasks([{ regex: String.raw`\d\d:\d\d:\d\d` }]);
    const once = maskRows(["at 10:20:30 up"], clock, 20);
    expect(maskRows(once, clock, 20)).toEqual(once);
    expect(() => toLibMasks([{ regex: "(" }])).toThrow(/INVALID_REGEX|mask regex/);
  });

  test("save_test masks what changed between two reads and the volatile shapes it sees", () => {
    const a = screen(["Tasks: 31 running", "Thu Dec  3 06:43:05 UTC 2026", "static"]);
    const b = screen(["Tasks: 33 running", "Thu Dec  3 06:43:05 UTC 2026", "static"]);
    const masks = suggestMasks(b.lines, volatileSpans([a, b]));
    expect(masks).toContainEqual({ region: { row: 0, col: 7, rows: 1, cols: 2 } });
    expect(masks.filter((m) => "regex" in m)).toHaveLength(1);
  });
});

describe("a human's typing as steps", () => {
  test("text, named keys under the live modes, a bracketed paste, and mouse reports as raw bytes", () => {
    const bytes = (s: string) => new TextEncoder().encode(s);
    expect(decodeHumanInput(bytes("hi"), LEGACY_MODES)).toEqual([{ type: "send_text", args: { text: "hi" } }]);
    expect(decodeHumanInput(bytes("\x1b[A\r"), LEGACY_MODES)).toEqual([
      { type: "send_keys", args: { keys: ["up", "enter"] } },
    ]);
    expect(decodeHumanInput(bytes("\x1bOA"), { ...LEGACY_MODES, applicationCursorKeys: true })).toEqual([
      { type: "send_keys", args: { keys: ["up"] } },
    ]);
    expect(decodeHumanInput(bytes("\x7f"), LEGACY_MODES)).toEqual([
      { type: "send_keys", args: { keys: ["backspace"] } },
    ]);
    expect(decodeHumanInput(bytes("\x1b[200~a b\x1b[201~"), LEGACY_MODES)).toEqual([
      { type: "paste", args: { text: "a b" } },
    ]);
    expect(decodeHumanInput(bytes("\x1b[<0;3;4M"), LEGACY_MODES)[0]!.type).toBe("send_raw");
  });
});

describe("the test save_test writes", () => {
  const launch = { command: "bash", args: [], cwd: "/tmp/x", cols: 80, rows: 24, term: "xterm-256color" };
  test("each input gets the agent's wait, or its chosen text with after: input, or an idle wait when nothing new showed", () => {
    const plan = planTest({
      entries: [
        { kind: "input", type: "send_keys", args: { keys: ["F2"] }, source: "agent", waitText: "Setup" },
        { kind: "input", type: "send_keys", args: { keys: ["down"] }, source: "human" },
        {
          kind: "input",
          type: "send_text",
          args: { text: "x" },
          source: "agent",
          waitFor: { pattern: "Done", newOnly: true },
        },
        { kind: "check", args: { pattern: "Done" } },
      ],
      launch,
      readyText: "Help",
      testDir: "/tmp/x",
      name: "demo",
      slug: "demo",
      snapshots: "end",
      inheritedEnv: { LANG: "C.UTF-8" },
      endMask: [],
    });
    expect(plan.test.steps).toEqual([
      { type: "wait_for_text", pattern: "Help" },
      { type: "send_keys", keys: "F2", waitFor: { pattern: "Setup", after: "input" } },
      { type: "send_keys", keys: "down", label: "typed by a human in the web viewer" },
      { type: "wait_for_idle", idleMs: 300, label: "no new text appeared after the input above" },
      { type: "send_text", text: "x", waitFor: { pattern: "Done", after: "input" } },
      { type: "assert_text", pattern: "Done" },
      { type: "expect_snapshot", name: "demo-end" },
    ]);
    expect(plan.test.session).toEqual({ command: "bash", cols: 80, rows: 24 });
  });

  test("after a call that returned before the app was at rest, the next input's new text is not trusted", () => {
    const plan = planTest({
      entries: [
        { kind: "input", type: "send_text", args: { text: ":e other\r" }, source: "agent", settled: false },
        { kind: "input", type: "send_keys", args: { keys: ["j"] }, source: "agent", waitText: "other file" },
        { kind: "input", type: "send_keys", args: { keys: ["k"] }, source: "agent", waitText: "k done" },
      ],
      launch,
      testDir: "/tmp/x",
      name: "n",
      slug: "n",
      snapshots: "none",
      inheritedEnv: { LANG: "C.UTF-8" },
      endMask: [],
    });
    const steps = plan.test.steps as Record<string, unknown>[];
    expect(steps[2]).toMatchObject({ type: "send_keys", keys: "j" });
    expect(steps[2]!.waitFor).toBeUndefined();
    expect(steps[3]).toMatchObject({
      type: "wait_for_idle",
      label: expect.stringContaining("before the app had finished"),
    });
    expect(steps[4]).toMatchObject({ keys: "k", waitFor: { pattern: "k done", after: "input" } });
  });

  test("a LANG the runner would change is written into the session's env", () => {
    const plan = planTest({
      entries: [],
      launch,
      testDir: "/tmp",
      name: "n",
      slug: "n",
      snapshots: "none",
      inheritedEnv: {},
      endMask: [],
    });
    expect(plan.test.session).toMatchObject({ cwd: "x", env: { LANG: "C" } });
  });
});

describe("--shard and --repeat", () => {
  const tests = Array.from({ length: 7 }, (_, i) => ({ title: `t${i}` }) as TestCase);
  test("the shards' union is every test exactly once, sizes differ by at most one", () => {
    for (const total of [1, 2, 3, 4, 7, 9]) {
      const shards = Array.from({ length: total }, (_, i) =>
        shardTests(tests, { index: i + 1, total }).map((t) => t.title),
      );
      expect(shards.flat().sort()).toEqual(tests.map((t) => t.title).sort());
      const sizes = shards.map((s) => s.length);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  test("--repeat runs each test N times under distinct titles", () => {
    expect(repeatTests(tests.slice(0, 2), 2).map((t) => t.title)).toEqual([
      "t0 [run 1/2]",
      "t0 [run 2/2]",
      "t1 [run 1/2]",
      "t1 [run 2/2]",
    ]);
  });
});

describe("start_session clock", () => {
  const { fakeClockEnv, findLibfaketime } =
    require("../../src/session/fake-clock.ts") as typeof import("../../src/session/fake-clock.ts");
  test.skipIf(findLibfaketime() === null)(
    "frozen by default, ticking from the instant with @, real monotonic time",
    () => {
      const now = Date.parse("2025-12-31T23:00:00Z");
      expect(fakeClockEnv("2026-01-01T00:00:00Z", undefined, now)).toMatchObject({
        FAKETIME: "1767225600",
        FAKETIME_FMT: "%s",
        FAKETIME_DONT_FAKE_MONOTONIC: "1",
      });
      expect(fakeClockEnv("@2026-01-01T00:00:00Z", "/other.so", now)).toMatchObject({
        FAKETIME: "+3600s",
        LD_PRELOAD: expect.stringMatching(/libfaketime\.so\.1:\/other\.so$/),
      });
      expect(() => fakeClockEnv("tomorrow", undefined)).toThrow(/ISO 8601/);
    },
  );

  test("without libfaketime the error says how to install it", () => {
    let error: unknown;
    try {
      fakeClockEnv("2026-01-01T00:00:00Z", undefined, Date.now(), null);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({
      code: "FAKETIME_MISSING",
      hint: expect.stringContaining("apt-get install faketime"),
    });
  });
});

describe("waits on a moved highlight, and no repeated goldens", () => {
  const launch = { command: "dialog", args: [], cwd: "/tmp/x", cols: 40, rows: 5, term: "xterm-256color" };
  test("an input that only moved a highlight waits for its cells (an ansi golden); an unchanged screen gets no second golden", () => {
    const menu = ["  Apple", "  Banana", "  Cherry"];
    const plan = planTest({
      entries: [
        {
          kind: "input",
          type: "send_keys",
          args: { keys: ["down"] },
          source: "agent",
          highlight: { row: 1, col: 2, cols: 6, text: "Banana", ansi: "\x1b[0;7mBanana\x1b[0m" },
          screen: { lines: menu, volatile: [] },
        },
        {
          kind: "input",
          type: "send_keys",
          args: { keys: ["down"] },
          source: "agent",
          highlight: { row: 2, col: 2, cols: 6, text: "Cherry", ansi: "\x1b[0;7mCherry\x1b[0m" },
          screen: { lines: menu, volatile: [] },
        },
        { kind: "input", type: "send_keys", args: { keys: ["enter"] }, source: "agent", waitText: "picked" },
      ],
      launch,
      testDir: "/tmp/x",
      name: "m",
      slug: "m",
      snapshots: "waits",
      inheritedEnv: { LANG: "C.UTF-8" },
      endMask: [],
    });
    expect(plan.highlightWaits).toBe(2);
    expect(plan.idleWaits).toBe(0);
    const steps = plan.test.steps as Record<string, unknown>[];
    expect(steps.map((s) => `${s.type}${s.name ? `:${s.name}` : ""}`)).toEqual([
      "send_keys",
      "expect_snapshot:m-01-highlight",
      "expect_snapshot:m-02",
      "send_keys",
      "expect_snapshot:m-03-highlight",
      "send_keys",
      "expect_snapshot:m-end",
    ]);
    expect(steps[1]).toMatchObject({ format: "ansi", region: { row: 1, col: 2, rows: 1, cols: 6 } });
    expect(plan.goldens.map((g) => g.name)).toEqual(["m-01-highlight", "m-02", "m-03-highlight"]);
    expect(plan.goldens[0]).toMatchObject({ format: "ansi", lines: ["\x1b[0;7mBanana\x1b[0m"] });
  });
});

describe("movedHighlight", () => {
  const bar = (row: number, startCol: number, text: string, kind: "inverse" | "bold" = "inverse") => ({
    row,
    startCol,
    endCol: startCol + text.length,
    text,
    kind,
  });
  test("the new bar, joined with the other new runs on its row; none when nothing moved", () => {
    const before = [bar(1, 2, "b"), bar(1, 4, "Apple"), bar(9, 0, "<OK>", "bold")];
    const after = [bar(2, 2, "c"), bar(2, 4, "Banana"), bar(9, 0, "<OK>", "bold")];
    expect(movedHighlight(before, after)).toMatchObject({ row: 2, startCol: 2, endCol: 10, text: "c Banana" });
    expect(movedHighlight(before, before)).toBeUndefined();
    expect(movedHighlight([], [bar(3, 0, "Title", "bold"), bar(4, 1, "Item")])).toMatchObject({ text: "Item" });
  });
});
