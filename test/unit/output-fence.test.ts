/**
 * Fences are cut out of the output stream wherever the reads split them, the program's bytes pass
 * whole and in order (a start that is not a fence included), and a fence counts as passed only once
 * it has come through.
 */
import { expect, jest, test } from "bun:test";
import type { SlaveWriter } from "../../src/pty/slave-write.ts";
import { FENCE_LOST_MS, FenceDrain, OutputFence } from "../../src/session/output-fence.ts";

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

test("a fence not back within FENCE_LOST_MS is taken as lost: not coming, and chunk ends no longer held", () => {
  jest.useFakeTimers();
  try {
    jest.advanceTimersByTime(10_000);
    const { fence, written } = fenceOnList();
    const seq = fence.raise()!;
    const drain = new FenceDrain(fence);
    expect(drain.drained("p:1")).toBe(false); // raises a second fence for this look
    expect(drain.coming("p:1")).toBe(true);
    expect(drain.coming("p:2")).toBe(false); // another look's writes: that fence says nothing of them
    expect(fence.coming(seq)).toBe(true); // the first, raised by hand, too
    expect(latin1(fence.cut(text.encode("a\x1b")).bytes)).toBe("a"); // the ESC may start the fence
    jest.advanceTimersByTime(FENCE_LOST_MS);
    expect(drain.coming("p:1")).toBe(false);
    expect(latin1(fence.cut(text.encode("b\x1b")).bytes)).toBe("\x1bb\x1b"); // held ESC, then nothing held
    // should it come after all, it is still cut, and passes
    expect(latin1(fence.cut(written[1]!).bytes)).toBe("");
    expect(drain.drained("p:1")).toBe(true);
  } finally {
    jest.useRealTimers();
  }
});

test("at most 32 fences are remembered as out: raising a 33rd forgets the oldest (taken as lost)", () => {
  const { fence } = fenceOnList();
  for (let i = 0; i < 33; i++) fence.raise();
  expect(fence.coming(1)).toBe(false); // forgotten: no wait counts on it
  expect(fence.coming(2)).toBe(true);
  expect(fence.coming(33)).toBe(true);
});
