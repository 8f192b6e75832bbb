/** Fixed-capacity byte ring: keeps the newest `capacity` bytes and counts everything ever written. */
export class ByteRing {
  private readonly buf: Uint8Array;
  private start = 0;
  private length = 0;
  /** Bytes ever appended, including those since overwritten. */
  total = 0;

  constructor(readonly capacity: number) {
    this.buf = new Uint8Array(Math.max(1, capacity));
  }

  append(chunk: Uint8Array): void {
    this.total += chunk.length;
    const cap = this.buf.length;
    if (chunk.length >= cap) {
      this.buf.set(chunk.subarray(chunk.length - cap));
      this.start = 0;
      this.length = cap;
      return;
    }
    const end = (this.start + this.length) % cap;
    const first = Math.min(chunk.length, cap - end);
    this.buf.set(chunk.subarray(0, first), end);
    this.buf.set(chunk.subarray(first), 0);
    const overflow = Math.max(0, this.length + chunk.length - cap);
    this.length = Math.min(cap, this.length + chunk.length);
    this.start = (this.start + overflow) % cap;
  }

  /** Bytes dropped because the ring was full. */
  get dropped(): number {
    return this.total - this.length;
  }

  get size(): number {
    return this.length;
  }

  /** The newest `maxBytes` retained bytes (all of them by default), oldest first. */
  tail(maxBytes = this.length): Uint8Array {
    const n = Math.min(maxBytes, this.length);
    const out = new Uint8Array(n);
    const cap = this.buf.length;
    const from = (this.start + this.length - n) % cap;
    const first = Math.min(n, cap - from);
    out.set(this.buf.subarray(from, from + first));
    out.set(this.buf.subarray(0, n - first), first);
    return out;
  }
}
