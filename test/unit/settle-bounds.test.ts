/**
 * The quiet-window settle's documented bounds (docs/behaviour.md, bench/README.md: wait up to 150 ms
 * for an answer, settle after 100 ms of quiet, at most 500 ms) are the code's, through their exported
 * names: moving one (say the window to 300 ms or the cap to 3,000 ms) fails here until the docs say so.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ADAPTIVE_QUIET_MS, FIRST_OUTPUT_MS, MAX_SETTLE_MS } from "../../src/session/quiet-window.ts";
import { settleStatement } from "../../src/tools/settle-words.ts";

const behaviour = readFileSync(join(import.meta.dir, "..", "..", "docs", "behaviour.md"), "utf8").replace(/\s+/g, " ");

test("the quiet window is 100 ms, capped at 500 ms, after up to 150 ms for the first answer", () => {
  expect([FIRST_OUTPUT_MS, ADAPTIVE_QUIET_MS, MAX_SETTLE_MS]).toEqual([150, 100, 500]);
});

test("the docs state the same bounds", () => {
  expect(behaviour).toContain(`waiting up to ${FIRST_OUTPUT_MS} ms for it`);
  expect(behaviour).toContain(`quiet for ${ADAPTIVE_QUIET_MS} ms, at most ${MAX_SETTLE_MS} ms after the input`);
});

test("the reply's settle statement names the window the code used", () => {
  const text = settleStatement({ waitedMs: 130, waitAfterMs: 130, settledBy: "quiet", fallback: "no /proc" } as never);
  expect(text).toContain(`output quiet for ${ADAPTIVE_QUIET_MS} ms`);
});
