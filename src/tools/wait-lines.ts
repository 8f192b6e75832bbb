/** The text view's lines for a wait's outcome: which of anyOf matched, how an exit ended it, an unfinished frame. */
import type { ExitInfo } from "../session/exit-info.ts";
import { exitPhrase } from "../session/wait.ts";

export interface WaitOutcome {
  matched: boolean;
  match?: unknown;
  pattern: string;
  anyOf?: string[];
  matchedIndex?: number;
  exited?: boolean;
  exit?: ExitInfo;
  elapsedMs?: number;
  frameMs?: number;
  frameUnfinished?: boolean;
}

export function waitLines(wait: WaitOutcome, prefix = ""): string[] {
  const lines: string[] = [];
  if (wait.matched && wait.matchedIndex !== undefined)
    lines.push(`${prefix}anyOf[${wait.matchedIndex}] matched: ${JSON.stringify(wait.pattern)}`);
  else if (!wait.matched && wait.anyOf) lines.push(`${prefix}none of anyOf appeared: ${JSON.stringify(wait.anyOf)}`);
  if (wait.matched && wait.match !== undefined && wait.match !== null && wait.match !== wait.pattern)
    lines.push(`${prefix}match: ${JSON.stringify(wait.match)}`);
  if (!wait.matched && wait.exited)
    lines.push(`${prefix}ended: ${exitPhrase({ exit: wait.exit, elapsedMs: wait.elapsedMs ?? 0 })}`);
  if (wait.frameUnfinished)
    lines.push(
      `${prefix}still drawing ${wait.frameMs} ms after the match (returned at the bound; the screen may change)`,
    );
  return lines;
}
