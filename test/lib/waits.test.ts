/** The library's waits: echo-aware by default, anyOf, and waits ended by the program's exit. */
import { describe, expect, test } from "bun:test";
import { launch, TuiError } from "../../src/lib/index.ts";

const bash = () => launch("bash", { args: ["--norc", "--noprofile"], env: { PS1: "$ " } });

async function rejection(promise: Promise<unknown>): Promise<TuiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TuiError);
  return error as TuiError;
}

describe("library waits", () => {
  test("waitForText and an inline waitFor skip the echo; matchEcho takes it", async () => {
    await using t = await bash();
    await t.waitForText("$ ");
    await t.type("read -r _; echo LIBMARK\r");
    const missed = await rejection(t.waitForText("LIBMARK", { timeoutMs: 300 }));
    expect(missed.code).toBe("WAIT_TIMEOUT");
    expect(missed.message).toStartWith('"LIBMARK" did not appear within 300 ms');
    expect((await t.waitForText("LIBMARK", { matchEcho: true, timeoutMs: 2000 })).match).toBe("LIBMARK");
    const done = await t.type("\r", { waitFor: "LIBMARK" });
    expect(done.screen!.after!.lines).toContain("LIBMARK");
  });

  test("anyOf: the first to appear, and which; strings and RegExps do not mix", async () => {
    await using t = await bash();
    await t.waitForText("$ ");
    await t.type("echo 'fail''ed: 3'\r");
    const hit = await t.waitForText({ anyOf: ["Compiled", /fail\w+: (\d)/] as never[] }).catch((e) => e);
    expect(hit).toBeInstanceOf(TuiError);
    expect((hit as TuiError).message).toContain("anyOf mixes strings and RegExps");
    const found = await t.waitForText({ anyOf: [/Compiled/, /fail\w+: (\d)/] });
    expect(found).toMatchObject({ index: 1, match: ["failed: 3", "3"] });
    const inline = await t.type("echo 'OK''AY'\r", { waitFor: { anyOf: ["NOPE", "OKAY"] } });
    expect(inline.waitFor).toMatchObject({ matched: true, matchedIndex: 1, pattern: "OKAY" });
    expect(inline.summary).toContain('"OKAY" (anyOf[1]) matched');
    const missed = await rejection(t.waitForText({ anyOf: ["NO1", "NO2"] }, { timeoutMs: 200 }));
    expect(missed.message).toStartWith('anyOf ["NO1", "NO2"] did not appear within 200 ms');
  });

  test("a wait ended by the exit names the code at once", async () => {
    await using t = await bash();
    await t.waitForText("$ ");
    const started = performance.now();
    const error = await rejection(t.type("echo bye; exit 7\r", { waitFor: { pattern: "NEVER", timeoutMs: 30_000 } }));
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(error.message).toMatch(/"NEVER" did not appear: the program exited \(exit code 7\) \d+ ms into the wait/);
    const after = await rejection(t.waitForText("NEVER", { timeoutMs: 30_000 }));
    expect(after.message).toContain("(exit code 7)");
    expect(after.message).toContain("bye");
  });
});
