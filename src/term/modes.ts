/**
 * DEC private modes that xterm.js 6 headless does not expose (or does not implement), tracked by
 * handlers that see `CSI ? Pm h` / `CSI ? Pm l` first and then return false so xterm.js still
 * applies every mode itself (xterm ctlseqs, "DECSET"/"DECRST"):
 *
 *   ?25      cursor visibility (DECTCEM); xterm.js keeps it internal
 *   ?1005    UTF-8 mouse coordinates       xterm.js ignores it ("not supported")
 *   ?1006    SGR mouse encoding            xterm.js does not expose the active encoding
 *   ?1015    urxvt mouse encoding          xterm.js ignores it
 *   ?1016    SGR-pixels mouse encoding
 *   ?2026    synchronized output (https://gist.github.com/christianparpart/d8a62cc1ab659194337d73e399004036);
 *            xterm.js tracks the flag (terminal.modes.synchronizedOutputMode) but headless has no
 *            renderer to defer, so the buffer shows a half-drawn frame while it is held. We keep the
 *            time the hold began and tell listeners the moment it ends, while the parser is still
 *            positioned right after the completed frame.
 *
 * DECRQM (`CSI ? Ps $ p`) for the four mouse encodings is answered from this state so that what we
 * report and what we encode agree (xterm.js would report 1005/1015 as "permanently reset").
 * RIS (`ESC c`) and DECSTR (`CSI ! p`) reset these as they reset xterm.js's own modes.
 */
import type { IDisposable, Terminal } from "@xterm/headless";
import { log } from "../util/log.ts";
import type { MouseEncoding } from "./types.ts";

const ENCODING_BY_MODE: Record<number, MouseEncoding> = {
  1005: "utf8",
  1006: "sgr",
  1015: "urxvt",
  1016: "sgr-pixels",
};

export class ModeTracker {
  cursorVisible = true;
  mouseEncoding: MouseEncoding = "default";
  /** performance.now() when the app began a synchronized update; null when none is open. */
  syncHeldSince: number | null = null;
  private readonly releaseListeners = new Set<() => void>();

  /** Listen for the end of a synchronized update (also fired on reset, so waiters never hang). */
  onSyncRelease(listener: () => void): () => void {
    this.releaseListeners.add(listener);
    return () => this.releaseListeners.delete(listener);
  }

  /** End any open hold (the emulator is going away), releasing whoever waits on it. */
  endSync(): void {
    this.setSync(false);
  }

  install(terminal: Terminal, reply: (data: string) => void, onFullReset: () => void): IDisposable[] {
    const parser = terminal.parser;
    const each = (params: (number | number[])[], on: boolean): boolean => {
      for (const p of params) if (typeof p === "number") this.apply(p, on);
      return false; // let xterm.js apply the mode too
    };
    return [
      parser.registerCsiHandler({ prefix: "?", final: "h" }, (params) => each(params, true)),
      parser.registerCsiHandler({ prefix: "?", final: "l" }, (params) => each(params, false)),
      parser.registerCsiHandler({ prefix: "?", intermediates: "$", final: "p" }, (params) => {
        const mode = params[0];
        const encoding = typeof mode === "number" ? ENCODING_BY_MODE[mode] : undefined;
        if (encoding === undefined || params.length !== 1) return false;
        reply(`\x1b[?${mode};${this.mouseEncoding === encoding ? 1 : 2}$y`);
        return true;
      }),
      parser.registerCsiHandler({ intermediates: "!", final: "p" }, () => {
        this.softReset();
        return false;
      }),
      parser.registerEscHandler({ final: "c" }, () => {
        this.softReset();
        this.mouseEncoding = "default";
        onFullReset();
        return false;
      }),
    ];
  }

  private apply(mode: number, on: boolean): void {
    if (mode === 25) this.cursorVisible = on;
    else if (mode === 2026) this.setSync(on);
    else {
      const encoding = ENCODING_BY_MODE[mode];
      if (encoding === undefined) return;
      // Like xterm.js: resetting 1006 or 1016 returns to the default encoding whatever is active.
      if (on) this.mouseEncoding = encoding;
      else if (mode === 1006 || mode === 1016 || this.mouseEncoding === encoding) this.mouseEncoding = "default";
    }
  }

  /** DECSTR: xterm.js shows the cursor and clears its DEC private modes, 2026 included. */
  private softReset(): void {
    this.cursorVisible = true;
    this.setSync(false);
  }

  private setSync(on: boolean): void {
    if (on) {
      // A repeated `?2026h` keeps the original start time: the hold has not ended.
      this.syncHeldSince ??= performance.now();
      return;
    }
    if (this.syncHeldSince === null) return;
    this.syncHeldSince = null;
    for (const listener of [...this.releaseListeners]) {
      // A listener runs inside the parser; an exception must not derail parsing.
      try {
        listener();
      } catch (e) {
        log("sync release listener failed:", String(e));
      }
    }
  }
}
