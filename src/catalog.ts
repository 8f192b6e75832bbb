/**
 * The tool catalog, in the order tools/list shows them. It stands above tools/ and script/ so that
 * run_script (built on the tools) and the tools are both assembled here, and no import runs upward.
 * A new tool: define it in its category file under tools/, then list it below.
 */
import { expectExitStep, expectFileStep } from "./script/expect-outcomes.ts";
import { expectSnapshotStep } from "./script/expect-snapshot.ts";
import { makeRunScript } from "./script/run-script.ts";
import { saveTestTool } from "./script/save-test.ts";
import { assertTextStep, sleepStep } from "./script/steps.ts";
import {
  markRecordingTool,
  screenshotTool,
  startRecordingTool,
  stopRecordingTool,
  webViewerTool,
  withHumanInputNotice,
} from "./tools/artifact-tools.ts";
import type { SessionToolDef, ToolDef } from "./tools/define.ts";
import { exportRecordingTool } from "./tools/export-tools.ts";
import { holdKeyTool, sendKeysTool, sendRawTool, sendTextTool, typeTextTool } from "./tools/input-tools.ts";
import { startMonitorTool, stopMonitorTool } from "./tools/monitor-tools.ts";
import { mouseTool, pasteTool } from "./tools/pointer-tools.ts";
import {
  diffSnapshotsTool,
  getCursorTool,
  getRawOutputTool,
  getTextTool,
  resizeTool,
  snapshotTool,
} from "./tools/screen-tools.ts";
import { getExitInfoTool, listSessionsTool, startSessionTool, stopSessionTool } from "./tools/session-tools.ts";
import { runTestsTool } from "./tools/test-tools.ts";
import { waitForIdleTool, waitForTextTool } from "./tools/wait-tools.ts";

const sessionTools: SessionToolDef[] = [
  sendKeysTool,
  sendTextTool,
  sendRawTool,
  holdKeyTool,
  typeTextTool,
  pasteTool,
  mouseTool,
  snapshotTool,
  getTextTool,
  getCursorTool,
  waitForTextTool,
  waitForIdleTool,
  resizeTool,
];

/**
 * Every run_script step type: the tools marked scriptable plus the script-only sleep, assert_text,
 * expect_snapshot, expect_exit and expect_file.
 */
export const scriptSteps: SessionToolDef[] = [
  ...[...sessionTools, markRecordingTool, screenshotTool].filter((tool) => tool.scriptable),
  sleepStep,
  assertTextStep,
  expectSnapshotStep,
  expectExitStep,
  expectFileStep,
];

export const runScriptTool = makeRunScript(scriptSteps);

export const tools: ToolDef[] = [
  startSessionTool,
  stopSessionTool,
  listSessionsTool,
  runScriptTool,
  saveTestTool,
  runTestsTool,
  ...sessionTools,
  startMonitorTool,
  stopMonitorTool,
  diffSnapshotsTool,
  getExitInfoTool,
  getRawOutputTool,
  startRecordingTool,
  stopRecordingTool,
  markRecordingTool,
  exportRecordingTool,
  screenshotTool,
  webViewerTool,
].map((tool) => withHumanInputNotice(tool));
