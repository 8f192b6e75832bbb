/** --shard i/n and --repeat N: which tests this run takes, and how many times. */
import type { TestCase } from "./load.ts";

export interface Shard {
  index: number;
  total: number;
}

/**
 * Test k of the sorted run (files sorted by path, tests in file order) goes to shard k mod n, so
 * shards differ by at most one test, every machine computes the same split, and their union is every
 * test exactly once.
 */
export function shardTests(tests: TestCase[], shard: Shard | undefined): TestCase[] {
  if (!shard) return tests;
  return tests.filter((_, k) => k % shard.total === shard.index - 1);
}

/** Each test `times` times in a row, titled "[run k/N]" so reports tell the runs apart. */
export function repeatTests(tests: TestCase[], times: number): TestCase[] {
  if (times <= 1) return tests;
  return tests.flatMap((test) =>
    Array.from({ length: times }, (_, k) => ({ ...test, title: `${test.title} [run ${k + 1}/${times}]` })),
  );
}
