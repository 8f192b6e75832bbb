/**
 * The modes an app has set, read together: xterm.js's own, and what the trackers add where xterm.js
 * keeps a mode internal or lacks it (modes.ts, kitty-flags.ts).
 */
import type { Terminal } from "@xterm/headless";
import type { KeyboardModes } from "../keys/types.ts";
import type { KittyFlagStacks, Screen } from "./kitty-flags.ts";
import type { ModeTracker } from "./modes.ts";
import type { TerminalModes } from "./types.ts";

export function activeScreen(terminal: Terminal): Screen {
  return terminal.buffer.active.type === "alternate" ? "alternate" : "main";
}

export function terminalModes(terminal: Terminal, tracker: ModeTracker, kitty: KittyFlagStacks): TerminalModes {
  const m = terminal.modes;
  const screen = activeScreen(terminal);
  return {
    applicationCursorKeys: m.applicationCursorKeysMode,
    applicationKeypad: m.applicationKeypadMode,
    bracketedPaste: m.bracketedPasteMode,
    mouseTracking: m.mouseTrackingMode,
    mouseEncoding: tracker.mouseEncoding,
    kittyKeyboardFlags: kitty.current(screen),
    altScreen: screen === "alternate",
    synchronizedOutput: tracker.syncHeldSince !== null,
    cursorVisible: tracker.cursorVisible,
    focusEvents: m.sendFocusMode,
  };
}

/** The modes that change what bytes a key press sends. */
export function keyboardModes(terminal: Terminal, kitty: KittyFlagStacks): KeyboardModes {
  const m = terminal.modes;
  return {
    applicationCursorKeys: m.applicationCursorKeysMode,
    applicationKeypad: m.applicationKeypadMode,
    kittyFlags: kitty.current(activeScreen(terminal)),
  };
}
