/**
 * How many bytes a terminal in cooked mode may echo for an input, at most (termios(3), Linux
 * n_tty): each byte it takes, a control character as `^X` (ECHOCTL), CR as CR LF (ONLCR), a tab as
 * up to 8 spaces (XTABS), an erase as `\b \b` (ECHOE). A line kill or a word erase (ECHOKE) rubs
 * out what the line holds: no bound. The settle's byte counters take bytes received beyond what
 * the program wrote as proof its output is in; echo must not count as that proof (a shell's command
 * line echoed while the command's last output was still on its way).
 */
const TAB = 0x09;
const DELETE = 0x7f;
const LINE_KILL = 0x15; // ^U
const WORD_ERASE = 0x17; // ^W

export function echoBudget(bytes: Uint8Array): number {
  let budget = 0;
  for (const byte of bytes) {
    if (byte === LINE_KILL || byte === WORD_ERASE) return Number.POSITIVE_INFINITY;
    budget += byte === TAB ? 8 : byte < 0x20 || byte === DELETE ? 3 : 1;
  }
  return budget;
}
