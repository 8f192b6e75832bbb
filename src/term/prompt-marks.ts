/**
 * OSC 133 prompt marks (FinalTerm's shell integration, used by fish, and by bash and zsh with an
 * integration script): `A` prompt start, `B` command start, `C` output start, `D[;status]` command
 * finished. The emulator counts finished commands and keeps the last status, so an input's reply can
 * say how the command it ran ended.
 */
import type { IDisposable, Terminal } from "@xterm/headless";

export class PromptMarks {
  /** How many `D` marks were parsed so far. */
  finished = 0;
  /** The status of the last finished command; null when its `D` mark carried none. */
  lastStatus: number | null = null;

  install(terminal: Terminal): IDisposable {
    return terminal.parser.registerOscHandler(133, (data) => {
      const [mark, status] = data.split(";");
      if (mark === "D") {
        this.finished++;
        this.lastStatus = status !== undefined && /^-?\d{1,10}$/.test(status) ? Number(status) : null;
      }
      return false; // xterm.js ignores 133 itself; nothing else to claim it from
    });
  }
}
