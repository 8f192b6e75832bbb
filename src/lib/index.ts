/**
 * tui-tester's library: drive terminal programs from TypeScript (bun test or any Bun script) with
 * the engine behind the MCP server and the CLI.
 *
 *   import { launch } from "tui-tester";
 *   await using t = await launch("htop");
 *   await t.waitForText("Load average");
 *   await t.press("F2", { waitFor: "Setup" });
 *
 * Matchers for bun:test: import "tui-tester/expect".
 */
export { TuiError, type ErrorCode } from "../errors.ts";
export type { RecordingStats } from "../record/recorder.ts";
export type { Screenshot } from "../render/screenshot.ts";
export type { ScreenBlock, ScreenView } from "../session/observe.ts";
export type { StopResult } from "../session/registry.ts";
export type { ExitInfo } from "../session/exit-info.ts";
export type { WaitIdleResult } from "../session/wait.ts";
export type { CellRegion, CellsResult, Highlight, ScrollbackInfo, SnapshotDiff, TerminalModes } from "../term/types.ts";
export { launch, type LaunchOptions } from "./launch.ts";
export type { Mask } from "./mask.ts";
export type { MouseAction, MouseArgs } from "./pointer.ts";
export { Terminal, type InputOptions, type InputResult, type Key, type TextMatch } from "./terminal.ts";
export type { TextPattern, WaitForOptions } from "./wait-options.ts";
export { runTests, type RunTestsOptions, type RunTestsResult } from "./run-tests.ts";
