/**
 * The body both save_test app tiers share: drive a scenario as an agent would, save it, and rerun the
 * saved test `reruns` times with `tui-tester test --repeat N --workers 2 --ci`, all of which must pass.
 */
import { expect } from "bun:test";
import { join } from "node:path";
import { runCli } from "../cli/cli-helpers.ts";
import type { TestClient } from "../e2e/client.ts";
import { prepare, type Scenario } from "./save-scenarios.ts";

export async function saveAndRerun(c: TestClient, dir: string, scenario: Scenario, reruns: number) {
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
  const rerun = await runCli(["--repeat", String(reruns), "--workers", "2", "--ci", "--timeout", "30000"], {
    cwd: testsDir,
  });
  if (rerun.code !== 0) console.error(`${scenario.name}: saved test\n${saved.data.file}\n${rerun.stderr}`);
  expect(rerun.stderr).toContain(`${reruns} passed`);
  expect(rerun.code).toBe(0);
  return { appDir, testsDir, saved };
}
