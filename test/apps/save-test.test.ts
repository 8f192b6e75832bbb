/**
 * Real-app tier for save_test: each of eight programs is driven as an agent would, saved, and the
 * saved test rerun with `tui-tester test --repeat 3 --workers 2` (bench/save-test.ts does 20). Where
 * the scenario can change what the app shows (another file in vim, another menu in dialog), the
 * saved test must fail and its report must show the change.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../cli/cli-helpers.ts";
import { connect, type TestClient } from "../e2e/client.ts";
import { MASK_CHAR } from "../../src/lib/mask.ts";
import { describeApp } from "./helpers.ts";
import { saveAndRerun } from "./save-rerun.ts";
import { SCENARIOS, writeChange } from "./save-scenarios.ts";

const RERUNS = 3;

for (const scenario of SCENARIOS) {
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

      test(`${scenario.name}: saved, then ${RERUNS}/${RERUNS} reruns pass${scenario.change ? "; a change in the app fails it" : ""}`, async () => {
        const { appDir, testsDir } = await saveAndRerun(c, dir, scenario, RERUNS);
        if (scenario.clock) {
          const golden = await Bun.file(
            join(testsDir, "__snapshots__", `${scenario.name}.tui.json`, `${scenario.name}-end.txt`),
          ).text();
          expect(golden).toContain(MASK_CHAR);
        }
        if (!scenario.change) return;
        writeChange(appDir, scenario.change.files);
        const changed = await runCli(["--ci", "--timeout", "30000"], { cwd: testsDir });
        expect(changed.code).toBe(1);
        expect(changed.stderr).toContain(scenario.change.failureMentions);
      }, 120_000);
    },
    `save_test on ${scenario.app}`,
  );
}
