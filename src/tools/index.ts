/** The tool catalog, in the order tools/list shows them. */
import { makeRunScript } from "../script/run-script.ts";
import { expectSnapshotStep } from "../script/expect-snapshot.ts";
import { assertTextStep, sleepStep } from "../script/steps.ts";
import { markRecordingTool, screenshotTool, startRecordingTool, stopRecordingTool, webViewerTool, withHumanInputNotice } from "./artifact-tools.ts";
import type { SessionToolDef, ToolDef } from "./define.ts";
import { holdKey, sendKeys, sendRaw, sendText, typeText } from "./input-tools.ts";
import { mouse, paste } from "./pointer-tools.ts";
import { startMonitor, stopMonitor } from "./monitor-tools.ts";
import { diffSnapshotsTool, getCursor, getRawOutput, getText, resize, snapshot } from "./screen-tools.ts";
import { getExitInfo, listSessions, startSession, stopSession } from "./session-tools.ts";
import { waitForIdle, waitForText } from "./wait-tools.ts";

/** Tools that run_script can run as steps (same schema minus sessionId, same code). */
const scriptable = [sendKeys, sendText, sendRaw, typeText, holdKey, paste, mouse, waitForText, waitForIdle, snapshot, getText, resize, markRecordingTool, screenshotTool] as unknown as SessionToolDef[];

/** Every run_script step type: the scriptable tools plus the script-only sleep, assert_text and expect_snapshot. */
export const scriptSteps: SessionToolDef[] = [...scriptable, sleepStep, assertTextStep, expectSnapshotStep];

export const runScript = makeRunScript(scriptSteps);

export const tools = [
  startSession,
  stopSession,
  listSessions,
  runScript,
  sendKeys,
  sendText,
  sendRaw,
  holdKey,
  typeText,
  paste,
  mouse,
  snapshot,
  getText,
  getCursor,
  waitForText,
  waitForIdle,
  resize,
  startMonitor,
  stopMonitor,
  diffSnapshotsTool,
  getExitInfo,
  getRawOutput,
  startRecordingTool,
  stopRecordingTool,
  markRecordingTool,
  screenshotTool,
  webViewerTool,
].map((tool) => withHumanInputNotice(tool as unknown as ToolDef));
