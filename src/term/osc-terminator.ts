/**
 * Which terminator (BEL or ST) the app ended each OSC query with, so the reply can use the same one
 * as xterm does ("the response uses the same terminator as the request": xterm ctlseqs, OSC).
 *
 * xterm.js's OSC handler API passes only the payload, not the terminator, so the raw bytes are
 * scanned here as they are written, before the parser sees them, and the parser's handler takes
 * the matching entry afterwards. Only 7-bit introducers are recognised (`ESC ]`); an OSC the scan
 * misses (8-bit C1) just gets the ST default.
 */

const ESC = 0x1b;
const BEL = 0x07;
const CAN = 0x18;
const SUB = 0x1a;
const RIGHT_BRACKET = 0x5d; // ]
const SEMICOLON = 0x3b;
const MAX_PENDING = 64;

export type OscTerminator = "\x07" | "\x1b\\";
export const ST: OscTerminator = "\x1b\\";
export const BEL_TERMINATOR: OscTerminator = "\x07";

const enum State {
  Ground,
  Escape,
  Osc,
}

export class OscTerminatorTracker {
  private state = State.Ground;
  private id = "";
  private idDone = false;
  private readonly pending: { id: number; terminator: OscTerminator }[] = [];

  /** @param ids the OSC numbers whose terminators are wanted (those we answer). */
  constructor(private readonly ids: ReadonlySet<number>) {}

  /** Feed bytes in the order they are written to the parser. */
  scan(data: string | Uint8Array): void {
    const isString = typeof data === "string";
    const n = data.length;
    for (let i = 0; i < n; i++) {
      if (this.state === State.Ground) {
        // Fast path: nothing interesting happens until the next ESC.
        const next = isString ? data.indexOf("\x1b", i) : data.indexOf(ESC, i);
        if (next < 0) return;
        i = next;
      }
      this.step(isString ? data.charCodeAt(i) : (data[i] as number));
    }
  }

  /** The terminator of the oldest unclaimed OSC `id` (older entries for other ids are dropped); ST when unseen. */
  take(id: number): OscTerminator {
    const at = this.pending.findIndex((p) => p.id === id);
    if (at < 0) return ST;
    const entry = this.pending[at]!;
    this.pending.splice(0, at + 1);
    return entry.terminator;
  }

  private step(c: number): void {
    switch (this.state) {
      case State.Ground:
        if (c === ESC) this.state = State.Escape;
        return;
      case State.Escape:
        this.escape(c);
        return;
      case State.Osc:
        if (c === BEL) this.finish(BEL_TERMINATOR);
        else if (c === ESC) {
          // Like xterm.js's parser, ESC itself ends the OSC (its handler runs before the `\` of ST
          // is even read); the following byte is then an ordinary escape sequence final.
          this.finish(ST);
          this.state = State.Escape;
        } else if (c === CAN || c === SUB)
          this.state = State.Ground; // aborted: no handler runs
        else if (!this.idDone) {
          if (c === SEMICOLON) this.idDone = true;
          else if (c >= 0x30 && c <= 0x39) this.id = this.id.length < 6 ? this.id + String.fromCharCode(c) : "-";
          else {
            this.id = "-"; // not a number: xterm.js runs no handler for it
            this.idDone = true;
          }
        }
        return;
    }
  }

  private escape(c: number): void {
    if (c === RIGHT_BRACKET) {
      this.state = State.Osc;
      this.id = "";
      this.idDone = false;
    } else this.state = c === ESC ? State.Escape : State.Ground;
  }

  private finish(terminator: OscTerminator): void {
    this.state = State.Ground;
    const id = /^\d+$/.test(this.id) ? Number(this.id) : NaN;
    if (!this.ids.has(id)) return;
    if (this.pending.length >= MAX_PENDING) this.pending.shift();
    this.pending.push({ id, terminator });
  }
}
