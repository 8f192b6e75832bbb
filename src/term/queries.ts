/**
 * Replies to queries xterm.js headless leaves unanswered (it answers DSR, DA1, DA2, DECRQM, DECRQSS
 * itself through onData). References are xterm ctlseqs:
 *
 *   OSC 10/11/12 ; ? ST     dynamic colours (foreground, background, cursor). A list such as
 *                           `OSC 10 ; ? ; ? ST` walks on to the next colour, as xterm does.
 *                           Reply: OSC 1x ; rgb:rrrr/gggg/bbbb, with the terminator of the request.
 *   OSC 4 ; c ; ? ST        palette entries; several `c ; spec` pairs may share one OSC.
 *   OSC 4/10/11/12 set      a colour spec instead of `?` changes the table, so later queries see it.
 *   OSC 104 / 110-112       reset palette entries / foreground / background / cursor colour.
 *   CSI > q, CSI > 0 q      XTVERSION; reply DCS > | name(version) ST.
 *
 * The colour OSCs are claimed (handlers return true): xterm.js's own handlers only raise events
 * for a renderer's theme service, which headless does not have.
 */
import type { IDisposable, Terminal } from "@xterm/headless";
import type { OscTerminatorTracker } from "./osc-terminator.ts";
import { type ColourTable, type DynamicColour, parseColorSpec, toXColor } from "./theme.ts";

/** OSC numbers whose requests we answer and so need the request's terminator for. */
export const ANSWERED_OSC: ReadonlySet<number> = new Set([4, 10, 11, 12]);

const DYNAMIC: Record<number, DynamicColour> = { 10: "foreground", 11: "background", 12: "cursor" };

export interface QueryDeps {
  reply: (data: string) => void;
  colours: ColourTable;
  terminators: OscTerminatorTracker;
  /** Name and version reported to XTVERSION, e.g. "tui-tester(0.1.0)". */
  xtversion: string;
}

export function installQueryHandlers(terminal: Terminal, deps: QueryDeps): IDisposable[] {
  const { colours, reply } = deps;
  const parser = terminal.parser;
  const send = (replies: string[]) => {
    if (replies.length > 0) reply(replies.join(""));
  };

  const dynamic = (first: number) => (data: string) => {
    const terminator = deps.terminators.take(first);
    const replies: string[] = [];
    data.split(";").forEach((spec, k) => {
      const which = DYNAMIC[first + k];
      if (which === undefined) return; // 13+ (mouse, Tektronix, highlight colours) are not kept
      if (spec === "?") replies.push(`\x1b]${first + k};${toXColor(colours.dynamic(which))}${terminator}`);
      else {
        const colour = parseColorSpec(spec);
        if (colour !== null) colours.setDynamic(which, colour);
      }
    });
    send(replies);
    return true;
  };

  const palette = (data: string) => {
    const terminator = deps.terminators.take(4);
    const parts = data.split(";");
    const replies: string[] = [];
    for (let k = 0; k + 1 < parts.length; k += 2) {
      const index = Number(parts[k]);
      const spec = parts[k + 1]!;
      if (!Number.isInteger(index) || parts[k] === "") continue;
      const current = colours.indexed(index);
      if (current === undefined) continue;
      if (spec === "?") replies.push(`\x1b]4;${index};${toXColor(current)}${terminator}`);
      else {
        const colour = parseColorSpec(spec);
        if (colour !== null) colours.setIndexed(index, colour);
      }
    }
    send(replies);
    return true;
  };

  const resetDynamic = (which: DynamicColour) => () => {
    colours.resetDynamic(which);
    return true;
  };

  return [
    parser.registerOscHandler(10, dynamic(10)),
    parser.registerOscHandler(11, dynamic(11)),
    parser.registerOscHandler(12, dynamic(12)),
    parser.registerOscHandler(4, palette),
    parser.registerOscHandler(104, (data) => {
      if (data === "") colours.resetIndexed();
      else for (const part of data.split(";")) if (part !== "") colours.resetIndexed(Number(part));
      return true;
    }),
    parser.registerOscHandler(110, resetDynamic("foreground")),
    parser.registerOscHandler(111, resetDynamic("background")),
    parser.registerOscHandler(112, resetDynamic("cursor")),
    parser.registerCsiHandler({ prefix: ">", final: "q" }, (params) => {
      if (params.some((p) => p !== 0)) return false;
      reply(`\x1bP>|${deps.xtversion}\x1b\\`);
      return true;
    }),
  ];
}
