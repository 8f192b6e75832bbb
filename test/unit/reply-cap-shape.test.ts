/** What a spilled reply holds: the note, the head of the text, the small fields, links, and the bounds. */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { capReply, cutBytes, Spills } from "../../src/tools/reply-cap.ts";
import { OutputDir } from "../../src/util/artifact-path.ts";

const dir = mkdtempSync(join(tmpdir(), "reply-cap-shape-"));
const spills = new Spills(new OutputDir(dir));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Spilled = {
  jsonPath?: string;
  textPath?: string;
  error?: string;
  replyBytes: number;
  maxReplyBytes: number;
  fields: string[];
};
const text = (reply: ReturnType<typeof capReply>) => (reply.content[0] as { text: string }).text;
const spilledOf = (reply: ReturnType<typeof capReply>) => (reply.structuredContent as { spilled: Spilled }).spilled;

test("cutBytes never splits a character and keeps short text whole", () => {
  expect(cutBytes("abc", 3)).toBe("abc");
  expect(cutBytes("abcd", 3)).toBe("abc");
  expect(cutBytes("aé", 2)).toBe("a"); // é is two bytes: not cut in half
  expect(cutBytes("aé", 3)).toBe("aé");
});

test("the big field goes to the file, the small ones stay, the note says where and what", () => {
  const big = "z".repeat(30_000);
  const full = { small: 1, name: "keep", big };
  const reply = capReply(
    { content: [{ type: "text", text: `head line\n${big}` }], structuredContent: full },
    "snapshot",
    { maxBytes: 8192, spills },
  );
  const spilled = spilledOf(reply);
  const size = JSON.stringify({
    content: [{ type: "text", text: `head line\n${big}` }],
    structuredContent: full,
  }).length;
  expect(spilled).toMatchObject({ replyBytes: size, maxReplyBytes: 8192, fields: ["big"] });
  expect(reply.structuredContent).toMatchObject({ small: 1, name: "keep" });
  expect(reply.structuredContent).not.toHaveProperty("big");
  expect(JSON.parse(readFileSync(spilled.jsonPath!, "utf8"))).toEqual(full);
  const body = text(reply);
  expect(body.startsWith("head line\nzzz")).toBe(true);
  expect(body).toContain("\n…\n[Reply of");
  expect(body).toContain(
    `[Reply of ${size} bytes exceeds 8192 (TUI_TESTER_MAX_REPLY_BYTES). Full text: ${spilled.textPath}; full JSON: ${spilled.jsonPath}; fields left out here: big.`,
  );
  // the head is a quarter of the budget at most
  expect(Buffer.byteLength(body)).toBeLessThanOrEqual(8192 / 4 + 600);
  const links = reply.content.slice(1) as { type: string; uri: string; name: string; mimeType: string; size: number }[];
  expect(links.map((l) => [l.type, l.name, l.mimeType])).toEqual([
    ["resource_link", "snapshot full text", "text/plain"],
    ["resource_link", "snapshot full result", "application/json"],
  ]);
  expect(links.map((l) => fileURLToPath(l.uri))).toEqual([spilled.textPath!, spilled.jsonPath!]);
  expect(links[0]!.size).toBe(Buffer.byteLength(`head line\n${big}`));
  expect(links[1]!.size).toBe(Buffer.byteLength(JSON.stringify(full)));
});

test("fields are dropped largest first, only until the rest fits in half the budget; an error stays an error", () => {
  const full = { a: "a".repeat(5000), b: "b".repeat(3000), c: "c".repeat(2500), d: "tiny" };
  const reply = capReply(
    { isError: true, content: [{ type: "text", text: "t".repeat(100) }], structuredContent: full },
    "get_text",
    { maxBytes: 10_000, spills },
  );
  expect(reply.isError).toBe(true);
  // about 10,500 bytes of fields against half the cap (5,000): a goes (5,500 left), then b (2,500 left)
  expect(spilledOf(reply).fields).toEqual(["a", "b"]);
  expect(reply.structuredContent).toMatchObject({ c: full.c, d: "tiny" });
  expect(reply.structuredContent).not.toHaveProperty("b");
  // the whole text fits in the head: no ellipsis
  expect(text(reply).startsWith(`${"t".repeat(100)}\n[Reply of`)).toBe(true);
});

test("fields of 2 KiB or less are never dropped, even when they add up", () => {
  const full = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, "x".repeat(2000)]));
  const reply = capReply({ content: [{ type: "text", text: "short" }], structuredContent: full }, "list_sessions", {
    maxBytes: 16_384,
    spills,
  });
  // nothing droppable fits: the reply falls back to the note and the links alone, naming every field
  expect(spilledOf(reply).fields).toEqual(Object.keys(full));
  expect(Object.keys(reply.structuredContent!)).toEqual(["spilled"]);
  expect(text(reply)).toStartWith("short\n[Reply of");
  expect(Buffer.byteLength(JSON.stringify(reply))).toBeLessThanOrEqual(16_384 - 256);
});

test("when the files cannot be written the reply says so and still fits", () => {
  const broken = new Spills(new OutputDir(join(dir, "a-file")));
  Bun.write(join(dir, "a-file"), "not a directory");
  const reply = capReply(
    { content: [{ type: "text", text: "q".repeat(20_000) }], structuredContent: { q: "q".repeat(20_000) } },
    "get_text",
    { maxBytes: 4096, spills: broken },
  );
  const spilled = spilledOf(reply);
  expect(spilled.jsonPath).toBeUndefined();
  expect(spilled.error).toBeString();
  expect(text(reply)).toContain(
    `The full result could not be saved (${spilled.error}; set TUI_TESTER_OUTPUT_DIR to a writable directory)`,
  );
  expect(reply.content.length).toBe(1);
  expect(Buffer.byteLength(JSON.stringify(reply))).toBeLessThanOrEqual(4096 - 256);
});
