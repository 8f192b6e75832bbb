/** walkTree: the walk below a process every tree lookup shares (session stop, input cap, ready oracle). */
import { expect, test } from "bun:test";
import { MAX_DESCENDANTS, walkTree } from "../../src/pty/process-tree.ts";

const tree: Record<number, number[]> = { 1: [2, 3], 2: [4, 5], 3: [6], 4: [], 5: [7], 6: [], 7: [] };
const childrenOf = (pid: number) => tree[pid] ?? [];

test("breadth first: every parent before its children, the root left out", () => {
  expect(walkTree(1, childrenOf, 100)).toEqual([2, 3, 4, 5, 6, 7]);
  expect(walkTree(5, childrenOf, 100)).toEqual([7]);
  expect(walkTree(7, childrenOf, 100)).toEqual([]);
});

test("at most `max` processes, the nearest first; exactly `max` is not cut", () => {
  expect(walkTree(1, childrenOf, 6)).toEqual([2, 3, 4, 5, 6, 7]);
  expect(walkTree(1, childrenOf, 5)).toEqual([2, 3, 4, 5, 6]);
  expect(walkTree(1, childrenOf, 1)).toEqual([2]);
  expect(walkTree(1, childrenOf, 0)).toEqual([]);
});

test("a pid seen again (reused while walking, or the root itself) is not walked twice", () => {
  const loop: Record<number, number[]> = { 1: [2], 2: [3, 1], 3: [2, 4], 4: [] };
  expect(walkTree(1, (pid) => loop[pid] ?? [], 100)).toEqual([2, 3, 4]);
});

test("a fork bomb's tree stops at the bound", () => {
  let asked = 0;
  const bomb = (pid: number) => {
    asked++;
    return [pid * 2, pid * 2 + 1];
  };
  const found = walkTree(1, bomb, MAX_DESCENDANTS);
  expect(found).toHaveLength(MAX_DESCENDANTS);
  expect(asked).toBeLessThanOrEqual(MAX_DESCENDANTS);
  expect(MAX_DESCENDANTS).toBe(4096);
});
