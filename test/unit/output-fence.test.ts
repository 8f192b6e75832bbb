/**
 * Fences are cut out of the output stream wherever the reads split them, the program's bytes pass
 * whole and in order (a start that is not a fence included), and a fence counts as passed only once
 * it has come through.
 */
import { expect, test } from "bun:test";
import type { SlaveWriter } from "../../src/pty/slave-write.ts";
import { OutputFence } from "../../src/session/output-fence.ts";

const text = new TextEncoder();
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString("latin1");

/** A fence whose slave is a list: what it "wrote", to be replayed as the program's output. */
function fenceOnList(accept: (bytes: Uint8Array) => number | undefined = (b) => b.length) {
  const written: Uint8Array[] = [];
  const slave = { write: (bytes: Uint8Array) => (written.push(bytes), accept(bytes)) } as unknown as SlaveWriter;
  return { fence: new OutputFence(slave), written };
}

function feed(fence: OutputFence, stream: Uint8Array, cuts: number[]): { out: string; cut: number } {
  let out = "";
  let cut = 0;
  let from = 0;
  for (const at of [...cuts, stream.length]) {
    const part = fence.cut(stream.slice(from, at));
    out += latin1(part.bytes);
    cut += part.cut;
    from = at;
  }
  const held = fence.release();
  if (held !== undefined) out += latin1(held);
  return { out, cut };
}

test("a fence is cut out at every split of the reads, and passes", () => {
  const program = "ab\x1b[31mred\x1b[$9\x1b[0m"; // escapes, and a CSI $ that is not a fence
  for (let split = 0; split <= 60; split++) {
    const { fence, written } = fenceOnList();
    const seq = fence.raise()!;
    expect(seq).toBe(1);
    const stream = Buffer.concat([text.encode(program), written[0]!, text.encode("tail\x1b")]);
    expect(fence.passed(seq)).toBe(false);
    const { out, cut } = feed(fence, stream, split < stream.length ? [split] : []);
    expect(out).toBe(`${program}tail\x1b`);
    expect(cut).toBe(written[0]!.length);
    expect(fence.passed(seq)).toBe(true);
  }
});

test("two fences split byte by byte: both cut, the newest passed", () => {
  const { fence, written } = fenceOnList();
  fence.raise();
  const second = fence.raise()!;
  const stream = Buffer.concat([text.encode("x"), written[0]!, text.encode("y"), written[1]!, text.encode("z")]);
  const { out } = feed(
    fence,
    stream,
    Array.from({ length: stream.length - 1 }, (_, i) => i + 1),
  );
  expect(out).toBe("xyz");
  expect(fence.passed(second)).toBe(true);
});

test("with no fence out, nothing is held back or scanned", () => {
  const { fence } = fenceOnList();
  const chunk = text.encode("ends in an escape \x1b");
  expect(fence.cut(chunk).bytes).toBe(chunk);
});

test("another session's fence (another nonce) is the program's output, not cut", () => {
  const a = fenceOnList();
  a.fence.raise();
  let b = fenceOnList();
  b.fence.raise();
  // nonces are random: one in 900,000 pairs share one
  while (latin1(b.written[0]!) === latin1(a.written[0]!)) (b = fenceOnList()).fence.raise();
  const { out, cut } = feed(a.fence, Buffer.concat([b.written[0]!, text.encode("!")]), []);
  expect(out).toBe(`${latin1(b.written[0]!)}!`);
  expect(cut).toBe(0);
});

test("a fence that cannot be written is not raised; a torn one ends fences for the session", () => {
  const stopped = fenceOnList(() => 0);
  expect(stopped.fence.raise()).toBeUndefined();
  const noSlave = fenceOnList(() => undefined);
  expect(noSlave.fence.raise()).toBeUndefined();
  let room = 5;
  const torn = fenceOnList((bytes) => Math.min(bytes.length, room));
  expect(torn.fence.raise()).toBeUndefined();
  room = 100;
  expect(torn.fence.raise()).toBeUndefined();
  expect(torn.written).toHaveLength(1);
});
