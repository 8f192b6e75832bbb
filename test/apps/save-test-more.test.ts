/**
 * save_test on seven more programs (save-scenarios-more.ts): each driven as an agent would, saved,
 * and rerun 3 times with `tui-tester test --repeat 3 --workers 2 --ci` (bench/save-test.ts --more: 20).
 */
import { afterAll, beforeAll, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect, type TestClient } from "../e2e/client.ts";
import { describeApp } from "./helpers.ts";
import { saveAndRerun } from "./save-rerun.ts";
import { MORE_SCENARIOS } from "./save-scenarios-more.ts";

const RERUNS = 3;

for (const scenario of MORE_SCENARIOS) {
  describeApp(
    scenario.app,
    () => {
      let c: TestClient;
      const dir = mkdtempSync(join(tmpdir(), `tui-save-${scenario.name}-`));
      beforeAll(async () => {
        c = await connect({ env: { DISPLAY: "", WAYLAND_DISPLAY: "" } });
      });
      afterAll(async () => {
        await c[Symbol.asyncDispose]();
        rmSync(dir, { recursive: true, force: true });
      });

      test(`${scenario.name}: saved, then ${RERUNS}/${RERUNS} reruns pass`, async () => {
        await saveAndRerun(c, dir, scenario, RERUNS);
      }, 120_000);
    },
    scenario.name,
  );
}
