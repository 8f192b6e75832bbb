/** Screen reads are kept while the screen holds still, and never outlive a parse or a resize. */
import { expect, test } from "bun:test";
import { useEmulators } from "./emulator-harness.ts";

const makeEmulator = useEmulators();

test("an unchanged screen is read once; a parse makes the next read fresh", async () => {
  const { emulator, feed } = makeEmulator({ cols: 20, rows: 3 });
  await feed("one");
  const first = emulator.snapshot({ highlights: true });
  const again = emulator.snapshot({ highlights: true });
  expect(again.lines).toBe(first.lines);
  expect(again.highlights).toBe(first.highlights);
  expect(emulator.viewport().lines).toBe(first.lines);
  await feed("\r\n\x1b[7mtwo\x1b[0m");
  const after = emulator.snapshot({ highlights: true });
  expect(after.lines).toEqual(["one", "two", ""]);
  expect(after.highlights).toEqual([{ row: 1, startCol: 0, endCol: 3, text: "two", kind: "inverse" }]);
  expect(emulator.text()).toBe("one\ntwo\n");
});

test("a resize makes the next read fresh", async () => {
  const { emulator, feed } = makeEmulator({ cols: 10, rows: 3 });
  await feed("abcdefgh");
  expect(emulator.viewport().lines[0]).toBe("abcdefgh");
  emulator.resize(4, 3);
  expect(emulator.viewport().lines).toEqual(["abcd", "", ""]);
});

test("a read made inside the parser (a synchronized update's release) is not kept past the parse", async () => {
  const { emulator, feed } = makeEmulator({ cols: 20, rows: 2 });
  let inside: string[] | undefined;
  emulator.onSyncRelease(() => {
    inside = [...emulator.viewport().lines];
  });
  // the frame ends, then more is drawn in the same chunk
  await feed("\x1b[?2026hframe\x1b[?2026l more");
  expect(inside).toEqual(["frame", ""]);
  expect(emulator.viewport().lines).toEqual(["frame more", ""]);
});

test("the shared rows cannot be changed by one reader under another", async () => {
  const { emulator, feed } = makeEmulator({ cols: 20, rows: 2 });
  await feed("kept");
  const lines = emulator.viewport().lines;
  expect(() => {
    lines[0] = "changed";
  }).toThrow();
  expect(emulator.text()).toBe("kept\n");
});
