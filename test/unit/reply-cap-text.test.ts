/** capTextReply, the text mode's bound: text counts, images do not; a larger text goes whole to a named file. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capTextReply, Spills } from "../../src/tools/reply-cap.ts";
import { OutputDir } from "../../src/util/artifact-path.ts";

const dir = mkdtempSync(join(tmpdir(), "reply-cap-text-"));
const limit = { maxBytes: 4096, spills: new Spills(new OutputDir(dir)) };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const textOf = (reply: { content: { type: string; text?: string }[] }) =>
  reply.content.map((part) => (part.type === "text" ? part.text : "")).join("");

test("a text at the cap passes untouched, one byte more is spilled; the reply never has structuredContent", () => {
  const fits = { content: [{ type: "text" as const, text: "é".repeat(2048) }] }; // 4096 bytes
  expect(capTextReply(fits, { n: 1 }, "get_text", limit)).toEqual(fits);
  const over = capTextReply({ content: [{ type: "text", text: `${"é".repeat(2048)}x` }] }, { n: 1 }, "get_text", limit);
  expect(over.structuredContent).toBeUndefined();
  expect(textOf(over)).toContain("[Reply of 4097 bytes of text exceeds 4096 (TUI_TESTER_MAX_REPLY_BYTES)");
  expect(Buffer.byteLength(textOf(over))).toBeLessThanOrEqual(4096);
});

test("images do not count against the text cap and stay in a spilled reply", () => {
  const image = { type: "image" as const, data: "A".repeat(100_000), mimeType: "image/png" };
  const small = { content: [{ type: "text" as const, text: "Screenshot saved to x.png" }, image] };
  expect(capTextReply(small, {}, "screenshot", limit)).toEqual(small);
  const big = capTextReply(
    { isError: true, content: [{ type: "text", text: "y".repeat(10_000) }, image] },
    { big: true },
    "snapshot",
    limit,
  );
  expect(big.isError).toBe(true);
  expect(big.content.filter((part) => part.type === "image")).toEqual([image]);
});

test("the spilled files hold the whole text and the result JSON, and the text names both", () => {
  const text = `summary\n${"z".repeat(9000)}\nthe end`;
  const reply = capTextReply({ content: [{ type: "text", text }] }, { answer: 42 }, "get_text", limit);
  const shown = textOf(reply);
  expect(shown).toStartWith("summary\nzzz");
  const txt = shown.match(/Full text: (\S+\.txt);/)![1]!;
  const json = shown.match(/full JSON: (\S+\.json)\./)![1]!;
  expect(readFileSync(txt, "utf8")).toBe(text);
  expect(JSON.parse(readFileSync(json, "utf8"))).toEqual({ answer: 42 });
  expect(reply.content.filter((part) => part.type === "resource_link")).toHaveLength(2);
});

test("when the file cannot be written the text says why and how to fix it", () => {
  const file = join(dir, "not-a-dir");
  writeFileSync(file, "x");
  const broken = { maxBytes: 4096, spills: new Spills(new OutputDir(join(file, "sub"))) };
  const reply = capTextReply({ content: [{ type: "text", text: "w".repeat(9000) }] }, {}, "get_text", broken);
  expect(textOf(reply)).toContain("could not be saved");
  expect(textOf(reply)).toContain("set TUI_TESTER_OUTPUT_DIR to a writable directory");
  expect(Buffer.byteLength(textOf(reply))).toBeLessThanOrEqual(4096);
});
