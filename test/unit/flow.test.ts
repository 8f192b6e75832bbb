/** The flow-control gate: the reader pauses past 1 MiB of read-but-unparsed output (src/pty/flow.ts). */
import { expect, test } from "bun:test";
import { FlowGate } from "../../src/pty/flow.ts";

const MIB = 1024 * 1024;

test("the reader may run up to exactly 1 MiB of unparsed output, and pauses one byte past it", () => {
  const gate = new FlowGate();
  expect(gate.add(MIB - 1)).toBe(false);
  expect(gate.add(1)).toBe(false);
  expect(gate.over).toBe(false);
  expect(gate.add(1)).toBe(true);
  expect(gate.over).toBe(true);
});

test("parsing back under the mark lets the reader go on; a closed gate never holds it", () => {
  const gate = new FlowGate();
  gate.add(2 * MIB);
  expect(gate.over).toBe(true);
  gate.release(MIB - 1);
  expect(gate.over).toBe(true);
  gate.release(1);
  expect(gate.pending).toBe(MIB);
  expect(gate.over).toBe(false);
  gate.add(MIB);
  gate.close();
  expect(gate.over).toBe(false);
});

/** A reader Worker blocked in waitUnder on `gate`; resolves with its message once it goes on. */
function readerThread(gate: FlowGate): { waiting: Promise<void>; released: Promise<string>; worker: Worker } {
  const worker = new Worker(new URL("../fixtures/flow-waiter.ts", import.meta.url).href);
  let onWaiting!: () => void;
  let onReleased!: (m: string) => void;
  const waiting = new Promise<void>((r) => (onWaiting = r));
  const released = new Promise<string>((r) => (onReleased = r));
  worker.onmessage = (event: MessageEvent<string>) => (event.data === "waiting" ? onWaiting() : onReleased(event.data));
  worker.postMessage(gate.shared);
  return { waiting, released, worker };
}

test("a reader at exactly 1 MiB does not block; one past it blocks until parsing brings it back", async () => {
  const atMark = new FlowGate();
  atMark.add(MIB);
  const free = readerThread(atMark);
  expect(await free.released).toBe(`released at ${MIB}`);
  free.worker.terminate();

  const over = new FlowGate();
  over.add(MIB + 1);
  const held = readerThread(over);
  await held.waiting;
  over.release(1);
  expect(await held.released).toBe(`released at ${MIB}`);
  held.worker.terminate();
});

test("closing the gate lets a blocked reader go, however much is pending", async () => {
  const gate = new FlowGate();
  gate.add(4 * MIB);
  const held = readerThread(gate);
  await held.waiting;
  gate.close();
  expect(await held.released).toBe(`released at ${4 * MIB}`);
  held.worker.terminate();
});

test("a child stopped at the tty is let go once, when parsing brings the backlog down to half a MiB", () => {
  const gate = new FlowGate();
  gate.add(2 * MIB);
  expect(gate.paused).toBe(false);
  gate.setPaused(true);
  expect(gate.paused).toBe(true);
  expect(gate.release(MIB)).toBe(false); // 1 MiB left: still above the low mark
  expect(gate.release(MIB / 2 - 1)).toBe(false); // one byte above half a MiB
  expect(gate.pending).toBe(MIB / 2 + 1);
  expect(gate.release(1)).toBe(true); // exactly half a MiB: let it go
  expect(gate.release(1)).toBe(false); // already below: not again
  gate.setPaused(false);
  expect(gate.paused).toBe(false);
});

test("a backlog falling past the low mark does not resume a child that was never stopped", () => {
  const gate = new FlowGate();
  gate.add(MIB);
  expect(gate.release(MIB)).toBe(false);
  expect(gate.pending).toBe(0);
});
