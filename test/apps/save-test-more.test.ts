/**
 * save_test on seven more programs (save-scenarios-more.ts): each driven as an agent would, saved,
 * and rerun 3 times with `tui-tester test --repeat 3 --workers 2 --ci` (bench/save-test.ts --more: 20).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli } from "../cli/cli-helpers.ts";
import { connect, type TestClient } from "../e2e/client.ts";
import { describeApp } from "./helpers.ts";
import { prepare } from "./save-scenarios.ts";
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
        const { appDir, testsDir } = prepare(dir, scenario.files);
        const sessionId = await scenario.drive(c, appDir);
        const saved = await c.call("save_test", {
          sessionId,
          path: join(testsDir, `${scenario.name}.tui.json`),
          snapshots: scenario.snapshots ?? "end",
        });
        expect(saved.isError).toBe(false);
        if (scenario.highlightWaits) {
          expect(saved.data.highlightWaits).toBeGreaterThan(0);
          expect(saved.data.idleWaits).toBe(0);
        }
        await c.call("stop_session", { sessionId, signal: "SIGKILL", graceMs: 0 });
        const rerun = await runCli(["--repeat", String(RERUNS), "--workers", "2", "--ci", "--timeout", "30000"], {
          cwd: testsDir,
        });
        if (rerun.code !== 0) console.error(`${scenario.name}: saved test\n${saved.data.file}\n${rerun.stderr}`);
        expect(rerun.stderr).toContain(`${RERUNS} passed`);
        expect(rerun.code).toBe(0);
      }, 120_000);
    },
    scenario.name,
  );
}
