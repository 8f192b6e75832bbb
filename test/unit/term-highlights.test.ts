/** Highlights: selection drawn in inverse, a background bar or bold, found without the noise around it. */
import { expect, test } from "bun:test";
import type { Terminal } from "@xterm/headless";
import { plainScreen } from "../../src/term/highlights.ts";
import { useEmulators } from "./emulator-harness.ts";

const makeEmulator = useEmulators();
const at = (row: number, col: number) => `\x1b[${row + 1};${col + 1}H`;

test("an inverse item is a highlight with its exact columns", async () => {
  const { emulator, feed } = makeEmulator({ cols: 20, rows: 4 });
  await feed(`${at(0, 0)}  one${at(1, 0)}  \x1b[7mtwo\x1b[0m${at(2, 0)}  three`);
  expect(emulator.snapshot({ highlights: true }).highlights).toEqual([
    { row: 1, startCol: 2, endCol: 5, text: "two", kind: "inverse" },
  ]);
  expect(emulator.snapshot().highlights).toBeUndefined();
});

test("a one-row background bar on a coloured panel is a highlight; the panel is not", async () => {
  const { emulator, feed } = makeEmulator({ cols: 12, rows: 5 });
  const blue = "\x1b[44m";
  const cyan = "\x1b[46m";
  // a blue panel filling the screen, the cursor line in cyan on row 2
  let screen = "";
  for (let r = 0; r < 5; r++)
    screen += `${at(r, 0)}${r === 2 ? cyan : blue}${["..", "a.txt", "b.txt", "c.txt", ""][r]!.padEnd(12)}`;
  await feed(screen + "\x1b[0m");
  expect(emulator.snapshot({ highlights: true }).highlights).toEqual([
    { row: 2, startCol: 0, endCol: 12, text: "b.txt       ", kind: "background" },
  ]);
});

test("a tab drawn in its bar's colour, sitting on the bar, is a highlight (htop's active tab)", async () => {
  const { emulator, feed } = makeEmulator({ cols: 20, rows: 4 });
  const green = "\x1b[42m";
  const blue = "\x1b[44m";
  // row 1: the active tab in the header bar's green, the other tab in blue; row 2: the green header bar
  await feed(
    `${at(1, 2)}${green}[Main]\x1b[0m ${blue}[I/O]\x1b[0m${at(2, 0)}${green}${"  PID USER".padEnd(20)}\x1b[0m`,
  );
  const tabs = emulator
    .snapshot({ highlights: true })
    .highlights!.filter((h) => h.row === 1)
    .map((h) => h.text);
  expect(tabs).toEqual(["[Main]", "[I/O]"]);
});

test("a bar in the screen's own colour inside a box counts too (dialog's menu)", async () => {
  const { emulator, feed } = makeEmulator({ cols: 14, rows: 6 });
  const blue = "\x1b[44m";
  const white = "\x1b[47m";
  let screen = "";
  for (let r = 0; r < 6; r++) screen += `${at(r, 0)}${blue}${" ".repeat(14)}`;
  for (let r = 1; r < 5; r++) screen += `${at(r, 2)}${white}${["", "Apple", "Banana", ""][r - 1]!.padEnd(10)}`;
  screen += `${at(3, 3)}${blue}Banana`;
  await feed(screen + "\x1b[0m");
  expect(emulator.snapshot({ highlights: true }).highlights).toEqual([
    { row: 3, startCol: 3, endCol: 9, text: "Banana", kind: "background" },
  ]);
});

test("bold is reported while rare, dropped when the app bolds everything; blank and line-drawing runs are skipped", async () => {
  const { emulator, feed } = makeEmulator({ cols: 30, rows: 12 });
  await feed(`${at(0, 0)}plain \x1b[1mBold\x1b[0m ${at(1, 0)}\x1b[7m   \x1b[0m ${at(2, 0)}\x1b[7m────\x1b[0m`);
  expect(emulator.snapshot({ highlights: true }).highlights).toEqual([
    { row: 0, startCol: 6, endCol: 10, text: "Bold", kind: "bold" },
  ]);
  let many = "";
  for (let r = 3; r < 12; r++) many += `${at(r, 0)}\x1b[1m${r}\x1b[0m x`;
  await feed(many);
  expect(emulator.snapshot({ highlights: true }).highlights).toEqual([]);
});

test("huge screens skip highlights instead of reading every cell", async () => {
  const { emulator, feed } = makeEmulator({ cols: 1000, rows: 500 });
  await feed("\x1b[7mselected\x1b[0m");
  expect(emulator.snapshot({ highlights: true }).highlights).toEqual([]);
});

test("plain screens are recognised from xterm.js's cell words (a renamed internal fails here, not silently slow)", async () => {
  const { emulator, feed } = makeEmulator({ cols: 20, rows: 4 });
  const terminal = (emulator as unknown as { terminal: Terminal }).terminal;
  const plain = () => plainScreen(terminal.buffer.active, terminal.buffer.active.viewportY, 4, 20);
  await feed("$ echo hi\r\nhi\r\n$ ");
  expect(plain()).toBe(true);
  await feed("\x1b[1mbold\x1b[0m");
  expect(plain()).toBe(false);
  await feed("\x1b[2J\x1b[H\x1b[7minverse\x1b[0m");
  expect(plain()).toBe(false);
  await feed("\x1b[2J\x1b[H\x1b[44mblue\x1b[0m");
  expect(plain()).toBe(false);
  await feed("\x1b[44m\x1b[2J\x1b[Hall blue");
  expect(plain()).toBe(true);
});

test("a screen in one background colour has no bar, but its inverse item is still found", async () => {
  const { emulator, feed } = makeEmulator({ cols: 12, rows: 3 });
  await feed(`\x1b[44m\x1b[2J${at(0, 0)}one${at(1, 0)}\x1b[7mtwo\x1b[27m${at(2, 0)}three`);
  expect(emulator.snapshot({ highlights: true }).highlights).toEqual([
    { row: 1, startCol: 0, endCol: 3, text: "two", kind: "inverse" },
  ]);
});
