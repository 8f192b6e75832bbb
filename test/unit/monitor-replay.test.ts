/** Monitor frames after the first are row diffs; replayFrames rebuilds every frame's screen. */
import { expect, test } from "bun:test";
import { replayFrames, type Frame } from "../../src/monitor/monitor.ts";
import { diffSnapshots } from "../../src/term/diff.ts";

const frame = (before: string[] | null, after: string[]): Frame => ({
  takenAt: "",
  offsetMs: 0,
  changed: true,
  cursor: { row: 0, col: 0, visible: true },
  diff: diffSnapshots({ lines: before ?? after }, { lines: after }),
  ...(before === null ? { text: after.join("\n") } : {}),
});

test("replaying diffs gives each frame's screen, through changes, added and removed rows", () => {
  const screens = [
    ["a", "b", "c"],
    ["a", "B", "c"],
    ["a", "B", "c", "d"],
    ["x", "B"],
    ["x", "B"],
  ];
  const frames = screens.map((screen, i) => frame(i === 0 ? null : screens[i - 1]!, screen));
  expect(frames[1]!.text).toBeUndefined();
  expect(replayFrames(frames)).toEqual(screens.map((s) => s.join("\n")));
});

test("a frame with text (after a resize) starts over from it", () => {
  const frames = [
    frame(null, ["a"]),
    { ...frame(["a"], ["b"]), text: "new\nscreen" },
    frame(["new", "screen"], ["new", "SCREEN"]),
  ];
  expect(replayFrames(frames)).toEqual(["a", "new\nscreen", "new\nSCREEN"]);
});
