/** The lazily loaded xterm.js headless terminal and its serialize add-on. */
import type { SerializeAddon } from "@xterm/addon-serialize";
import type { Terminal } from "@xterm/headless";

/**
 * xterm.js is loaded on the first session, not at start-up: evaluating it is a large share of the
 * server's spawn-to-initialize time (issue 14), and a server may never start a session.
 */
let xterm: { Terminal: typeof Terminal; SerializeAddon: typeof SerializeAddon } | undefined;
export function loadXterm(): NonNullable<typeof xterm> {
  return (xterm ??= {
    Terminal: require("@xterm/headless").Terminal,
    SerializeAddon: require("@xterm/addon-serialize").SerializeAddon,
  });
}
