/**
 * asciicast v2 writer (https://docs.asciinema.org/manual/asciicast/v2/): a JSON header line, then
 * one `[time, code, data]` line per event. Every line goes to disk when the event happens, so a
 * crash leaves a file that asciinema still plays up to that point.
 */
import { closeSync, openSync, writeSync } from "node:fs";

export interface AsciicastHeader {
  width: number;
  height: number;
  title?: string;
  term: string;
}

/** o: output, i: input, r: resize ("COLSxROWS"), m: marker (label). */
export type EventCode = "o" | "i" | "r" | "m";

/** A recording stops growing here (a runaway program must not fill the disk); a marker says so. */
export const MAX_CAST_BYTES = 512 * 1024 * 1024;

export class AsciicastWriter {
  private fd: number | undefined;
  /** Set once MAX_CAST_BYTES was reached; later events are dropped. */
  truncated = false;
  private readonly started = performance.now();
  private readonly decoders = {
    o: new TextDecoder("utf-8", { fatal: false }),
    i: new TextDecoder("utf-8", { fatal: false }),
  };
  events = 0;
  bytes = 0;

  /** Creates (or truncates) `path` and writes the header. Throws what openSync throws. */
  constructor(
    readonly path: string,
    header: AsciicastHeader,
    private readonly maxBytes = MAX_CAST_BYTES,
  ) {
    this.fd = openSync(path, "w", 0o644);
    this.line({
      version: 2,
      width: header.width,
      height: header.height,
      timestamp: Math.floor(Date.now() / 1000),
      ...(header.title ? { title: header.title } : {}),
      env: { TERM: header.term },
    });
  }

  get open(): boolean {
    return this.fd !== undefined;
  }

  /** Milliseconds since the recording started. */
  get elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** Output or input bytes. Split UTF-8 sequences are carried over to the next chunk (streaming decode). */
  bytesEvent(code: "o" | "i", chunk: Uint8Array): void {
    const text = this.decoders[code].decode(chunk, { stream: true });
    if (text !== "") this.event(code, text);
  }

  event(code: EventCode, data: string): void {
    if (this.fd === undefined || this.truncated) return;
    // asciinema reads times as seconds; microsecond precision is what it writes itself.
    const time = Math.round(this.elapsedMs * 1000) / 1_000_000;
    const line = `${JSON.stringify([time, code, data])}\n`;
    if (this.bytes + Buffer.byteLength(line) > this.maxBytes) {
      this.truncated = true;
      this.line([time, "m", `recording truncated: it reached ${this.maxBytes} bytes`]);
      this.events++;
      return;
    }
    this.write(line);
    this.events++;
  }

  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    closeSync(fd);
  }

  private line(value: unknown): void {
    this.write(`${JSON.stringify(value)}\n`);
  }

  private write(text: string): void {
    if (this.fd === undefined) return;
    const buf = Buffer.from(text);
    let off = 0;
    while (off < buf.length) off += writeSync(this.fd, buf, off);
    this.bytes += buf.length;
  }
}
