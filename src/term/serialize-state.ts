/** The whole terminal state as one ANSI stream, for repainting a viewer or restoring an exited session. */
import type { SerializeAddon } from "@xterm/addon-serialize";
import type { MouseEncoding } from "./types.ts";

/**
 * SerializeAddon restores the mouse tracking mode but not its encoding; without this a viewer's terminal
 * would report clicks in X10 form to an app that asked for SGR (xterm ctlseqs, "Mouse Tracking").
 */
const MOUSE_ENCODING_MODE: Record<MouseEncoding, string> = {
  default: "",
  utf8: "\x1b[?1005h",
  sgr: "\x1b[?1006h",
  "sgr-pixels": "\x1b[?1016h",
  urxvt: "\x1b[?1015h",
};

/**
 * SerializeAddon's stream plus what it leaves out: cursor visibility and the mouse encoding.
 * `scrollbackLines` caps the history sent with it.
 */
export function serializeState(
  serializer: SerializeAddon,
  state: { scrollbackLines?: number; cursorVisible: boolean; mouseEncoding: MouseEncoding },
): string {
  const options = state.scrollbackLines === undefined ? undefined : { scrollback: state.scrollbackLines };
  return (
    serializer.serialize(options) + (state.cursorVisible ? "" : "\x1b[?25l") + MOUSE_ENCODING_MODE[state.mouseEncoding]
  );
}
