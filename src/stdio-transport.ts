/**
 * The MCP stdio transport: newline-delimited JSON-RPC on stdin/stdout, as the SDK's
 * StdioServerTransport, with two differences that keep one bad client from ending the server:
 *
 * - A line longer than MAX_LINE_BYTES is refused, not fatal. The SDK's transport closes itself once
 *   its 10 MiB read buffer overflows, so one oversized request ended every session. Here the rest of
 *   such a line is discarded as it streams in (never buffered), and the request is answered with a
 *   JSON-RPC error naming the limit, under its id when the id can be read from the line's start, else
 *   as a log notification. Serving goes on.
 * - One write queue. The SDK's send() adds a 'drain' listener per write while stdout is full, and
 *   10,000 pipelined requests printed MaxListenersExceededWarning; here one listener serves them all.
 *
 * Messages are parsed with the SDK's own deserializeMessage.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { deserializeMessage, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { log } from "./util/log.ts";

/** The longest request line accepted, the SDK transport's own read limit. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;
/** How much of an oversized line's start and end is kept to find its id. */
const ID_SCAN_BYTES = 4096;
const TAIL_BYTES = 512;
const NEWLINE = 0x0a;
/** JSON-RPC "Invalid Request". */
const INVALID_REQUEST = -32600;

export class LineLimitedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  /** The pieces of the line being read, and their total size. */
  private pieces: Buffer[] = [];
  private lineBytes = 0;
  /** Set while the rest of an oversized line is being skipped. */
  private discarding = false;
  private discardedBytes = 0;
  private oversizeHead = "";
  private oversizeTail: Buffer = Buffer.alloc(0);
  private readonly waitingForDrain: (() => void)[] = [];
  private started = false;

  constructor(
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
    readonly maxLineBytes = MAX_LINE_BYTES,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error("LineLimitedStdioTransport already started");
    this.started = true;
    this.stdin.on("data", this.onData);
    this.stdin.on("error", this.onStreamError);
  }

  async close(): Promise<void> {
    this.stdin.off("data", this.onData);
    this.stdin.off("error", this.onStreamError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.pieces = [];
    this.lineBytes = 0;
    this.releaseWriters();
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const flowing = this.stdout.write(serializeMessage(message));
      if (flowing && this.waitingForDrain.length === 0) return resolve();
      // stdout holds the bytes; the caller hears back once it has drained. One listener for every writer.
      this.waitingForDrain.push(resolve);
      if (this.waitingForDrain.length === 1) this.stdout.once("drain", this.releaseWriters);
    });
  }

  /** Lines in the bytes so far; the maxLineBytes check runs on the line being read, not the chunk. */
  private readonly onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    while (data.length > 0) {
      const newline = data.indexOf(NEWLINE);
      const piece = newline === -1 ? data : data.subarray(0, newline);
      if (this.discarding) this.skip(piece);
      else if (this.lineBytes + piece.length > this.maxLineBytes) this.startDiscarding(piece);
      else {
        this.pieces.push(piece);
        this.lineBytes += piece.length;
      }
      if (newline === -1) return;
      this.endLine();
      data = data.subarray(newline + 1);
    }
  };

  private readonly onStreamError = (error: Error): void => this.onerror?.(error);

  private readonly releaseWriters = (): void => {
    for (const resolve of this.waitingForDrain.splice(0)) resolve();
  };

  /** Count a piece of an oversized line, keeping only its last TAIL_BYTES (where the SDK puts the id). */
  private skip(piece: Buffer): void {
    this.discardedBytes += piece.length;
    const joined = piece.length >= TAIL_BYTES ? piece : Buffer.concat([this.oversizeTail, piece]);
    this.oversizeTail = Buffer.from(joined.subarray(Math.max(0, joined.length - TAIL_BYTES)));
  }

  private startDiscarding(piece: Buffer): void {
    const head = Buffer.concat([...this.pieces, piece.subarray(0, ID_SCAN_BYTES)]);
    this.oversizeHead = head.toString("utf8", 0, Math.min(head.length, ID_SCAN_BYTES));
    this.discarding = true;
    this.discardedBytes = this.lineBytes;
    this.oversizeTail = Buffer.alloc(0);
    this.skip(piece);
    this.pieces = [];
    this.lineBytes = 0;
  }

  private endLine(): void {
    if (this.discarding) {
      this.discarding = false;
      this.refuseOversized();
      return;
    }
    const line = Buffer.concat(this.pieces, this.lineBytes).toString("utf8").replace(/\r$/, "");
    this.pieces = [];
    this.lineBytes = 0;
    if (line.trim() === "") return;
    try {
      this.onmessage?.(deserializeMessage(line));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /** Answer a line that was too long: an error under its id if the id was readable, else a log notification. */
  private refuseOversized(): void {
    const size = this.discardedBytes;
    const tail = this.oversizeTail.toString("utf8");
    const id = topLevelIdAtStart(this.oversizeHead) ?? topLevelIdAtEnd(tail);
    const method = /^\{\s*"method"\s*:\s*"([^"\\]{1,100})"/.exec(this.oversizeHead)?.[1];
    this.oversizeHead = "";
    this.oversizeTail = Buffer.alloc(0);
    const message =
      `Request of ${size} bytes refused: the limit is ${this.maxLineBytes} bytes (10 MiB) per JSON-RPC message. ` +
      "Send large text in parts (send_text takes at most 1 MiB), or read it from a file in the program.";
    const which = id === undefined ? " without a readable id" : ` id ${JSON.stringify(id)}`;
    log(`refused a ${size}-byte request line${method ? ` (${method})` : ""}${which}`);
    const reply: JSONRPCMessage =
      id !== undefined
        ? {
            jsonrpc: "2.0",
            id,
            error: { code: INVALID_REQUEST, message, data: { limitBytes: this.maxLineBytes, receivedBytes: size } },
          }
        : {
            jsonrpc: "2.0",
            method: "notifications/message",
            params: { level: "error", logger: "tui-tester", data: message },
          };
    void this.send(reply);
  }
}

const ID_VALUE = String.raw`(-?\d{1,16}|"(?:[^"\\]|\\.){0,200}")`;

/**
 * The id of a request whose line was cut, read from the line's start: the "id" key of the outer object
 * among the keys before the first nested value (`{"jsonrpc":"2.0","id":7,"method":...`).
 */
function topLevelIdAtStart(head: string): RequestId | undefined {
  const scalar = String.raw`(?:-?\d{1,16}|"(?:[^"\\]|\\.){0,200}"|true|false|null)`;
  const keys = new RegExp(String.raw`^\{(?:\s*"[^"\\]{0,40}"\s*:\s*${scalar}\s*,)*?\s*"id"\s*:\s*`).exec(head);
  if (keys === null) return undefined;
  return parseId(new RegExp(`^${ID_VALUE}\\s*[,}]`).exec(head.slice(keys[0].length))?.[1]);
}

/**
 * ... or from its end, where the SDK's client puts it (`..."jsonrpc":"2.0","id":7}`): followed by one
 * closing brace only, so not a nested object's id.
 */
function topLevelIdAtEnd(tail: string): RequestId | undefined {
  return parseId(new RegExp(`[,{]\\s*"id"\\s*:\\s*${ID_VALUE}\\s*\\}\\s*\\r?$`).exec(tail)?.[1]);
}

function parseId(text: string | undefined): RequestId | undefined {
  if (text === undefined) return undefined;
  try {
    const id: unknown = JSON.parse(text);
    return typeof id === "number" || typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}
