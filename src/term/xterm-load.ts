/** The lazily loaded xterm.js headless terminal and its serialize add-on, and the private core behind a terminal. */
import type { SerializeAddon } from "@xterm/addon-serialize";
import type { Terminal } from "@xterm/headless";

/**
 * xterm.js is loaded on the first session, not at start-up: evaluating it is a large share of the
 * server's spawn-to-initialize time (bench/README.md, start-up), and a server may never start a session.
 */
let xterm: { Terminal: typeof Terminal; SerializeAddon: typeof SerializeAddon } | undefined;
export function loadXterm(): NonNullable<typeof xterm> {
  return (xterm ??= {
    Terminal: require("@xterm/headless").Terminal,
    SerializeAddon: require("@xterm/addon-serialize").SerializeAddon,
  });
}

/** The parts of xterm.js's private core the emulator uses: a synchronous parse and the DECSCUSR cursor style. */
export interface XtermCore {
  writeSync(data: string | Uint8Array): void;
  coreService?: { decPrivateModes?: { cursorStyle?: string } };
}

/** `terminal._core`; every @xterm/headless Terminal has one (its public API wraps it). */
export function privateCore(terminal: Terminal): XtermCore {
  const { _core } = terminal as { _core?: XtermCore };
  if (_core === undefined) throw new Error("xterm.js's Terminal has no _core; this version is not supported");
  return _core;
}
