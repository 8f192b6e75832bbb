/** capReply's files: written whole, private, and only the newest MAX_SPILLS_KEPT kept on disk. */
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { capReply, MAX_SPILLS_KEPT, Spills } from "../../src/tools/reply-cap.ts";
import { OutputDir } from "../../src/util/artifact-path.ts";

const dir = mkdtempSync(join(tmpdir(), "reply-cap-test-"));
const limit = { maxBytes: 4096, spills: new Spills(new OutputDir(dir)) };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function bigResult(n: number) {
  const text = `result ${n}\n${"x".repeat(20_000)}`;
  return { content: [{ type: "text" as const, text }], structuredContent: { n, text } };
}

test("a reply over the cap is spilled to private files that hold all of it", () => {
  const reply = capReply(bigResult(0), "get_text", limit);
  expect(JSON.stringify(reply).length).toBeLessThan(4096);
  const spilled = (reply.structuredContent as { spilled: { jsonPath: string; textPath: string } }).spilled;
  expect(JSON.parse(readFileSync(spilled.jsonPath, "utf8")).text).toBe(bigResult(0).structuredContent.text);
  expect(readFileSync(spilled.textPath, "utf8")).toBe(bigResult(0).content[0]!.text);
  expect(statSync(spilled.jsonPath).mode & 0o077).toBe(0);
});

test(`only the newest ${MAX_SPILLS_KEPT} spills stay on disk, and other files in the directory are left alone`, () => {
  const mine = join(dir, "users-own-file.txt");
  writeFileSync(mine, "keep me");
  const paths: string[] = [];
  for (let n = 1; n <= MAX_SPILLS_KEPT + 10; n++) {
    const reply = capReply(bigResult(n), "get_text", limit);
    paths.push((reply.structuredContent as { spilled: { jsonPath: string } }).spilled.jsonPath);
  }
  const files = readdirSync(dir);
  expect(files.filter((f) => f.endsWith(".json")).length).toBe(MAX_SPILLS_KEPT);
  expect(files.filter((f) => f.startsWith("get_text-") && f.endsWith(".txt")).length).toBe(MAX_SPILLS_KEPT);
  for (const path of paths.slice(-MAX_SPILLS_KEPT)) expect(existsSync(path)).toBe(true);
  for (const path of paths.slice(0, 10)) expect(existsSync(path)).toBe(false);
  expect(readFileSync(mine, "utf8")).toBe("keep me");
});

/** A text result whose JSON is exactly `bytes` long. */
function resultOfSize(bytes: number) {
  const base = { content: [{ type: "text" as const, text: "" }] };
  const text = "y".repeat(bytes - JSON.stringify(base).length);
  return { content: [{ type: "text" as const, text }] };
}

test("the cap is exact: a reply at the cap (less the JSON-RPC envelope) passes, one byte more is spilled", () => {
  const cap = { maxBytes: 8192, spills: limit.spills };
  const fits = resultOfSize(8192 - 256);
  expect(JSON.stringify(fits).length).toBe(8192 - 256);
  expect(capReply(fits, "get_text", cap)).toBe(fits);
  const over = capReply(resultOfSize(8192 - 256 + 1), "get_text", cap);
  expect(over.structuredContent).toHaveProperty("spilled");
  expect(JSON.stringify(over).length).toBeLessThanOrEqual(8192 - 256);
});

test("a reply of 1.5 times the cap is spilled, not let through", () => {
  const over = capReply(resultOfSize(12_288), "get_text", { maxBytes: 8192, spills: limit.spills });
  expect(over.structuredContent).toHaveProperty("spilled");
  expect(JSON.stringify(over).length).toBeLessThanOrEqual(8192);
});
