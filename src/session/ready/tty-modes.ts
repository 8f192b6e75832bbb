/**
 * A terminal read that times out in the tty driver: in non-canonical mode with VMIN 0 and VTIME > 0,
 * read(2) returns after VTIME tenths of a second with nothing read (termios(3), "MIN == 0, TIME > 0";
 * Linux n_tty_read). No syscall argument shows that timeout: the terminal's modes do, read with
 * tcgetattr on the terminal the thread reads. Linux only (glibc's and musl's struct termios).
 */
import { FFIType, ptr } from "bun:ffi";
import { withTerminal } from "../../pty/tty-flow.ts";
import { loadLibc } from "../../util/libc.ts";

/** struct termios on Linux: c_lflag at byte 12, c_cc from byte 17; VTIME is c_cc[5], VMIN c_cc[6]. */
const TERMIOS_BYTES = 64;
const LFLAG_AT = 12;
const CC_AT = 17;
const VTIME = 5;
const VMIN = 6;
const ICANON = 0o2;

const symbols = { tcgetattr: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.i32 } } as const;
let libc: { loaded: ReturnType<typeof loadLibc<typeof symbols>> } | undefined;

/**
 * How long a read of the terminal at `path` (/dev/pts/N) waits before it returns empty-handed, in ms,
 * when its modes give it such a timeout; undefined when a read waits for input with no timeout (or
 * the modes cannot be read).
 */
export function terminalReadTimeoutMs(path: string): number | undefined {
  const c = (libc ??= { loaded: loadLibc(symbols) }).loaded;
  if (c === undefined) return undefined;
  return withTerminal(path, (fd) => {
    const termios = new Uint8Array(TERMIOS_BYTES);
    if (c.tcgetattr(fd, ptr(termios)) !== 0) return undefined;
    const lflag = new DataView(termios.buffer).getUint32(LFLAG_AT, true);
    const vtime = termios[CC_AT + VTIME]!;
    const vmin = termios[CC_AT + VMIN]!;
    return (lflag & ICANON) === 0 && vmin === 0 && vtime > 0 ? vtime * 100 : undefined;
  });
}
