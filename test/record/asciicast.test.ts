/** The asciicast writer on its own: header, event lines, UTF-8 split across chunks, close. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AsciicastWriter } from "../../src/record/asciicast.ts";
import { readCast } from "./cast.ts";

const dir = mkdtempSync(join(tmpdir(), "tui-tester-cast-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a character split across two output chunks is written whole, in the chunk that completes it", () => {
  const path = join(dir, "utf8.cast");
  const writer = new AsciicastWriter(path, { width: 10, height: 2, term: "xterm", title: "t" });
  const bytes = new TextEncoder().encode("a€b"); // € is 3 bytes
  writer.bytesEvent("o", bytes.subarray(0, 2));
  writer.bytesEvent("o", bytes.subarray(2));
  writer.event("r", "20x5");
  writer.event("m", "done");
  writer.close();
  writer.event("o", "after close is ignored");
  const { header, events } = readCast(path);
  expect(header).toMatchObject({ version: 2, width: 10, height: 2, title: "t", env: { TERM: "xterm" } });
  expect(events.map(([, code, data]) => [code, data])).toEqual([
    ["o", "a"],
    ["o", "€b"],
    ["r", "20x5"],
    ["m", "done"],
  ]);
  expect(writer.events).toBe(4);
  expect(Bun.file(path).size).toBe(writer.bytes);
});

test("control characters and escapes survive as JSON strings", () => {
  const path = join(dir, "esc.cast");
  const writer = new AsciicastWriter(path, { width: 80, height: 24, term: "xterm-256color" });
  writer.event("o", '\x1b[1;31mred\x1b[0m\r\n"quoted" \\ \u0000');
  writer.close();
  expect(readCast(path).events[0]![2]).toBe('\x1b[1;31mred\x1b[0m\r\n"quoted" \\ \u0000');
});

test("a recording stops at its size cap with a marker saying so", () => {
  const path = join(dir, "cap.cast");
  const writer = new AsciicastWriter(path, { width: 80, height: 24, term: "xterm" }, 400);
  for (let i = 0; i < 20; i++) writer.event("o", "0123456789");
  writer.close();
  const { events } = readCast(path);
  expect(writer.truncated).toBe(true);
  expect(events.at(-1)![1]).toBe("m");
  expect(events.at(-1)![2]).toContain("truncated");
  expect(events.length).toBeLessThan(20);
  expect(Bun.file(path).size).toBe(writer.bytes);
});
