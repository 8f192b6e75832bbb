/**
 * Kitty keyboard protocol, progressive enhancement flags
 * (https://sw.kovidgoyal.net/kitty/keyboard-protocol/#progressive-enhancement):
 *
 *   CSI > flags u          push flags onto the stack
 *   CSI < number u         pop `number` entries (default 1); popping everything resets to 0
 *   CSI = flags ; mode u   change the current flags: mode 1 set, 2 or, 3 and-not (default 1)
 *   CSI ? u                query: the terminal answers CSI ? flags u
 *
 * "The terminal must maintain separate stacks for the main and alternate screens"; when a stack
 * is full the oldest entry is evicted. xterm.js 6 implements none of this, so it is tracked here.
 * Only the prefixed forms are intercepted: plain `CSI u` stays xterm's restore-cursor (SCORC).
 */
import type { IDisposable, Terminal } from "@xterm/headless";

/** The five flags the spec defines (disambiguate, event types, alternates, all keys, text). */
const KNOWN_FLAGS = 0b11111;
const STACK_LIMIT = 16;

export type Screen = "main" | "alternate";

export class KittyFlagStacks {
  private readonly stacks: Record<Screen, number[]> = { main: [], alternate: [] };

  /** Flags in effect on `screen`: the top of its stack, or 0. */
  current(screen: Screen): number {
    const stack = this.stacks[screen];
    return stack[stack.length - 1] ?? 0;
  }

  push(screen: Screen, flags: number): void {
    const stack = this.stacks[screen];
    if (stack.length >= STACK_LIMIT) stack.shift();
    stack.push(flags & KNOWN_FLAGS);
  }

  pop(screen: Screen, count: number): void {
    const stack = this.stacks[screen];
    stack.length = Math.max(0, stack.length - Math.max(1, count));
  }

  set(screen: Screen, flags: number, mode: number): void {
    const stack = this.stacks[screen];
    const now = this.current(screen);
    const f = flags & KNOWN_FLAGS;
    let next: number;
    if (mode === 2) next = now | f;
    else if (mode === 3) next = now & ~f;
    else if (mode === 1) next = f;
    else return; // unknown mode: ignore, as for any malformed control sequence
    // With an empty stack the "current flags" are the implicit 0 entry; give it a slot.
    if (stack.length === 0) stack.push(next);
    else stack[stack.length - 1] = next;
  }

  /** RIS (full reset) empties both stacks. */
  reset(): void {
    this.stacks.main.length = 0;
    this.stacks.alternate.length = 0;
  }
}

/** First numeric parameter (xterm.js passes sub-parameter lists as arrays), or the default. */
export function param(params: (number | number[])[], index: number, fallback: number): number {
  const p = params[index];
  const value = Array.isArray(p) ? p[0] : p;
  return value === undefined || value === 0 ? fallback : value;
}

/** Wire the four `u` sequences into the terminal's parser. */
export function installKittyHandlers(
  terminal: Terminal,
  stacks: KittyFlagStacks,
  reply: (data: string) => void,
): IDisposable[] {
  const screen = (): Screen => (terminal.buffer.active.type === "alternate" ? "alternate" : "main");
  const parser = terminal.parser;
  return [
    parser.registerCsiHandler({ prefix: ">", final: "u" }, (params) => {
      stacks.push(screen(), param(params, 0, 0));
      return true;
    }),
    parser.registerCsiHandler({ prefix: "<", final: "u" }, (params) => {
      stacks.pop(screen(), param(params, 0, 1));
      return true;
    }),
    parser.registerCsiHandler({ prefix: "=", final: "u" }, (params) => {
      // flags 0 is meaningful here (mode 1 with 0 clears everything), so no defaulting of 0.
      const first = params[0];
      const flags = (Array.isArray(first) ? first[0] : first) ?? 0;
      stacks.set(screen(), flags, param(params, 1, 1));
      return true;
    }),
    parser.registerCsiHandler({ prefix: "?", final: "u" }, () => {
      reply(`\x1b[?${stacks.current(screen())}u`);
      return true;
    }),
  ];
}
