import { expect, test } from "bun:test";
import { ByteRing } from "../../src/util/ring-buffer.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

test("keeps everything while under capacity", () => {
  const ring = new ByteRing(10);
  ring.append(bytes("abc"));
  ring.append(bytes("de"));
  expect(text(ring.tail())).toBe("abcde");
  expect([ring.total, ring.size, ring.dropped]).toEqual([5, 5, 0]);
});

test("keeps the newest bytes across wrap-around and counts bytes, not UTF-16 units", () => {
  const ring = new ByteRing(8);
  ring.append(bytes("012345"));
  ring.append(bytes("6789"));
  expect(text(ring.tail())).toBe("23456789");
  ring.append(bytes("é")); // 2 bytes
  expect(ring.total).toBe(12);
  expect(text(ring.tail())).toBe("456789é");
  expect(text(ring.tail(2))).toBe("é");
  expect(ring.dropped).toBe(4);
});

test("a chunk larger than the ring keeps its tail", () => {
  const ring = new ByteRing(4);
  ring.append(bytes("abcdefgh"));
  expect(text(ring.tail())).toBe("efgh");
  ring.append(bytes("ij"));
  expect(text(ring.tail())).toBe("ghij");
});
