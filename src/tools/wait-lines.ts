/** The text view's lines for a wait's outcome: which of anyOf matched, how an exit ended it, an unfinished frame. */
import { describeExit, type ExitInfo } from "../session/exit-info.ts";

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

/** The exit that ended a wait, as one phrase: "exited (exit code 3) 312 ms into the wait". */
export function exitPhrase(wait: WaitOutcome): string {
  const how = wait.exit ? describeExit(wait.exit) : "exit status unknown";
  return `the program exited (${how}) ${wait.elapsedMs ?? 0} ms into the wait`;
}

export function waitLines(wait: WaitOutcome, prefix = ""): string[] {
  const lines: string[] = [];
  if (wait.matched && wait.matchedIndex !== undefined)
    lines.push(`${prefix}anyOf[${wait.matchedIndex}] matched: ${JSON.stringify(wait.pattern)}`);
  else if (!wait.matched && wait.anyOf) lines.push(`${prefix}none of anyOf appeared: ${JSON.stringify(wait.anyOf)}`);
  if (wait.matched && wait.match !== undefined && wait.match !== null && wait.match !== wait.pattern)
    lines.push(`${prefix}match: ${JSON.stringify(wait.match)}`);
  if (!wait.matched && wait.exited) lines.push(`${prefix}ended: ${exitPhrase(wait)}`);
  if (wait.frameUnfinished)
    lines.push(
      `${prefix}still drawing ${wait.frameMs} ms after the match (returned at the bound; the screen may change)`,
    );
  return lines;
}
