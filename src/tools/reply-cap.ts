/**
 * Bounded replies: no tool result is larger than TUI_TESTER_MAX_REPLY_BYTES (config.ts REPLY_BYTES:
 * 16 KiB of text in text mode, 1 MiB of JSON in structured mode). A larger result is written in full to
 * the server's output directory (TUI_TESTER_OUTPUT_DIR) and the reply keeps the summary, the head of
 * the text, (structured) the small fields, and resource links to the files. The newest
 * MAX_SPILLS_KEPT spills are kept.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { OutputDir } from "../util/artifact-path.ts";

/** A field whose JSON is at most this big stays inline when a reply is spilled to a file. */
const SMALL_FIELD_BYTES = 2048;
/** Room for the JSON-RPC envelope around the result ({"jsonrpc":"2.0","id":...,"result":...}). */
const ENVELOPE_BYTES = 256;

/**
 * Spilled replies a server keeps on disk: each is read once, soon after its reply, and a long run
 * (a monitor stopped in a loop, cells read part by part) must not fill the disk. Older spills are
 * deleted as new ones are written; nothing else in the directory is touched.
 */
export const MAX_SPILLS_KEPT = 32;

/** One server's spilled replies, in its output directory. */
export class Spills {
  private readonly kept: string[] = [];
  private count = 0;

  constructor(private readonly output: OutputDir) {}

  /** Write the full text and JSON next to each other; undefined paths (and the reason) when that fails. */
  save(tool: string, text: string, json: string): { base?: string; failure?: string } {
    try {
      const dir = this.output.path;
      mkdirSync(dir, { recursive: true });
      const base = join(dir, `${tool}-${Date.now()}-${++this.count}`);
      this.kept.push(base);
      writeFileSync(`${base}.json`, json, { mode: 0o600 });
      writeFileSync(`${base}.txt`, text, { mode: 0o600 });
      this.forgetOld();
      return { base };
    } catch (error) {
      return { failure: error instanceof Error ? error.message : String(error) };
    }
  }

  private forgetOld(): void {
    while (this.kept.length > MAX_SPILLS_KEPT) {
      const base = this.kept.shift()!;
      for (const path of [`${base}.json`, `${base}.txt`]) rmSync(path, { force: true });
    }
  }
}

/** The largest reply, and where a larger one goes. */
export interface ReplyLimit {
  maxBytes: number;
  spills: Spills;
}

const bytesOf = (s: string) => Buffer.byteLength(s, "utf8");

/** Cut a string to at most `max` UTF-8 bytes without splitting a character. */
export function cutBytes(text: string, max: number): string {
  if (bytesOf(text) <= max) return text;
  const cut = Buffer.from(text, "utf8").subarray(0, max).toString("utf8");
  return cut.endsWith("\uFFFD") ? cut.slice(0, -1) : cut;
}

/** The reply's note on a spill: how big, the limit, where the whole is, what to do. */
function spillNote(size: number, unit: string, maxBytes: number, where: string, dropped: string[] = []): string {
  return (
    `\n[Reply of ${size} ${unit} exceeds ${maxBytes} (TUI_TESTER_MAX_REPLY_BYTES). ` +
    `${where}${dropped.length ? `; fields left out here: ${dropped.join(", ")}` : ""}` +
    `. Ask for less (a region, fewer lines or bytes) or read the file.]`
  );
}

function spillWhere(base: string | undefined, failure: string | undefined): string {
  return base
    ? `Full text: ${base}.txt; full JSON: ${base}.json`
    : `The full result could not be saved (${failure}; set TUI_TESTER_OUTPUT_DIR to a writable directory)`;
}

function spillLinks(base: string | undefined, tool: string, text: string, json: string): CallToolResult["content"] {
  if (!base) return [];
  return [
    {
      type: "resource_link",
      uri: pathToFileURL(`${base}.txt`).href,
      name: `${tool} full text`,
      mimeType: "text/plain",
      size: bytesOf(text),
    },
    {
      type: "resource_link",
      uri: pathToFileURL(`${base}.json`).href,
      name: `${tool} full result`,
      mimeType: "application/json",
      size: bytesOf(json),
    },
  ];
}

/**
 * Text mode (no structuredContent): the text parts count against the cap, images do not (a PNG has its
 * own bound, screenshot's MAX_INLINE_PNG_BYTES). Over the cap, the text and the result JSON go to files
 * and the reply keeps the head of the text, the note naming the files, the images and links.
 */
export function capTextReply(
  result: Pick<CallToolResult, "isError" | "content">,
  data: Record<string, unknown>,
  tool: string,
  { maxBytes, spills }: ReplyLimit,
): CallToolResult {
  const texts = result.content.filter((part) => part.type === "text");
  const text = texts.map((part) => part.text).join("\n");
  const size = bytesOf(text);
  const plain: CallToolResult = { ...(result.isError ? { isError: true } : {}), content: result.content };
  if (size <= maxBytes) return plain;
  const json = JSON.stringify(data);
  const { base, failure } = spills.save(tool, text, json);
  const note = spillNote(size, "bytes of text", maxBytes, spillWhere(base, failure));
  // The head fills the budget but for the note and a little room ("\n…"); the links are not text.
  const head = cutBytes(text, Math.max(256, maxBytes - bytesOf(note) - 64));
  return {
    ...plain,
    content: [
      { type: "text", text: `${head}${head.length < text.length ? "\n…" : ""}${note}` },
      ...result.content.filter((part) => part.type !== "text"),
      ...spillLinks(base, tool, text, json),
    ],
  };
}

export function capReply(result: CallToolResult, tool: string, { maxBytes, spills }: ReplyLimit): CallToolResult {
  const size = bytesOf(JSON.stringify(result));
  if (size <= maxBytes - ENVELOPE_BYTES) return result;
  const text = result.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
  const full = result.structuredContent ?? {};
  const json = JSON.stringify(full);
  const { base, failure } = spills.save(tool, text, json);

  // Drop the largest fields until the rest fits in half the budget (cells go before lines and text).
  const kept: Record<string, unknown> = { ...full };
  const dropped: string[] = [];
  const sizes = Object.entries(full)
    .map(([key, value]) => [key, bytesOf(JSON.stringify(value) ?? "")] as const)
    .sort((a, b) => b[1] - a[1]);
  let keptBytes = sizes.reduce((sum, [, n]) => sum + n, 0);
  for (const [key, n] of sizes) {
    if (keptBytes <= maxBytes / 2 || n <= SMALL_FIELD_BYTES) break;
    delete kept[key];
    dropped.push(key);
    keptBytes -= n;
  }
  const where = spillWhere(base, failure);
  const spilled = {
    ...(base ? { jsonPath: `${base}.json`, textPath: `${base}.txt` } : { error: failure }),
    replyBytes: size,
    maxReplyBytes: maxBytes,
    fields: dropped,
  };
  const note = spillNote(size, "bytes", maxBytes, where, dropped);
  const headBudget = Math.max(1024, Math.floor(maxBytes / 4) - bytesOf(note) - keptBytes);
  const head = cutBytes(text, headBudget);
  const links = spillLinks(base, tool, text, json);
  const reply: CallToolResult = {
    ...(result.isError ? { isError: true } : {}),
    content: [{ type: "text", text: `${head}${head.length < text.length ? "\n…" : ""}${note}` }, ...links],
    structuredContent: { ...kept, spilled },
  };
  // Many mid-sized fields could still add up: then only the note and the links stay.
  if (bytesOf(JSON.stringify(reply)) > maxBytes - ENVELOPE_BYTES) {
    reply.content[0] = { type: "text", text: cutBytes(text, 1024) + note };
    reply.structuredContent = { spilled: { ...spilled, fields: Object.keys(full) } };
  }
  return reply;
}
