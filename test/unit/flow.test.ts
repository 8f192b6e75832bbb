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
