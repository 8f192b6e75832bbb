/** watchChanges: armed before the first look, so a change between a look and the wait is never missed. */
import { expect, test } from "bun:test";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { watchChanges } from "../../src/lib/change-watch.ts";
import { launch } from "../../src/lib/index.ts";

test("a screen update that lands before next() is called wakes it at once", async () => {
  await using t = await launch("bash", { args: ["--norc", "--noprofile"], env: { PS1: "$ " }, cols: 40, rows: 6 });
  await t.waitForText("$");
  using changes = watchChanges(t.session);
  // the update is parsed (and seen by the wait below) before anyone waits on the watch
  await t.type("echo armed-$((1+1))\r", { captureScreen: false });
  // and the prompt after it: bash then writes nothing more, so only the armed flag can end the wait below
  await t.waitForText(/^armed-2\n\$$/m);
  // without the armed flag this would wait out the whole 10 minutes (the test's own timeout fails first)
  await changes.next(600_000);
  expect((await t.screen()).text).toContain("armed-2");
});

test("a file written in the watched directory wakes it; no directory yet means a short recheck", async () => {
  const dir = await mkdtemp(join(tmpdir(), "tui-watch-"));
  try {
    using changes = watchChanges(undefined, join(dir, "out.txt"));
    const woke = changes.next(600_000);
    await Bun.write(join(dir, "out.txt"), "x");
    await woke;
    using missing = watchChanges(undefined, join(dir, "no", "such", "dir", "f"));
    const started = performance.now();
    await missing.next(600_000);
    expect(performance.now() - started).toBeLessThan(60_000);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
