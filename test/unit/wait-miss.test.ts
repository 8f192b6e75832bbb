/** One wording of a missed wait: every face's WAIT_TIMEOUT is built by session/wait-miss.ts. */
import { expect, test } from "bun:test";
import {
  exitTimeoutError,
  notSeenReason,
  shownPatterns,
  waitTimeout,
  waitTimeoutError,
} from "../../src/session/wait-miss.ts";

const hint = { exited: "it exited", timeout: "it timed out" };
const timedOut = { timeoutMs: 300, elapsedMs: 300, matchedAgainst: "screen" as const };

test("a timeout says the patterns did not appear within N ms on what was matched, and its fix", () => {
  const miss = waitTimeout(timedOut, { shown: '"READY"', hint });
  expect(miss).toEqual({
    code: "WAIT_TIMEOUT",
    message: '"READY" did not appear within 300 ms on the screen.',
    hint: "it timed out",
  });
  expect(waitTimeout({ ...timedOut, matchedAgainst: "raw" }, { shown: '"x"', hint }).message).toBe(
    '"x" did not appear within 300 ms on the raw.',
  );
});

test("a wait the exit ended says how it exited, and the exit's fix", () => {
  const exit = { exitCode: 3, signal: null, exitedAt: "", runtimeMs: 10 };
  const miss = waitTimeout({ ...timedOut, exited: true, exit, elapsedMs: 12 }, { shown: '"x"', hint });
  expect(miss.message).toBe('"x" did not appear: the program exited (exit code 3) 12 ms into the wait.');
  expect(miss.hint).toBe("it exited");
});

test("what was done comes first, the quoted screen last; the thrown error keeps the details", () => {
  const error = waitTimeoutError(
    timedOut,
    { before: "Sent 1 byte, but ", shown: '"x"', hint, screen: "$ ls" },
    {
      sessionId: "s1",
    },
  );
  expect(error.code).toBe("WAIT_TIMEOUT");
  expect(error.message).toBe('Sent 1 byte, but "x" did not appear within 300 ms on the screen.\n--- screen ---\n$ ls');
  expect(error.details).toEqual({ sessionId: "s1" });
});

test("patterns are shown as literals, regexes or an anyOf list; the exit wait has its own words", () => {
  expect(shownPatterns({ pattern: 'a"b' })).toBe('"a\\"b"');
  expect(shownPatterns({ pattern: "^\\d+", regex: true, regexFlags: "m" })).toBe("/^\\d+/m");
  expect(shownPatterns({ anyOf: ["A", "B"] })).toBe('anyOf ["A", "B"]');
  const exit = exitTimeoutError(200, "$");
  expect(exit.message).toBe("The program did not exit within 200 ms.\n--- screen ---\n$");
  expect(exit.code).toBe("WAIT_TIMEOUT");
});

test("a miss that is no error says why in a summary's words", () => {
  expect(notSeenReason(timedOut)).toBe("timed out after 300 ms");
  const exit = { exitCode: null, signal: "SIGTERM", exitedAt: "", runtimeMs: 10 };
  expect(notSeenReason({ ...timedOut, exited: true, exit, exitedBefore: true })).toStartWith(
    "the program had exited (",
  );
});
