/** The text view's lines for a wait's outcome, beyond its summary. */
import type { ExitInfo } from "../session/exit-info.ts";

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

/**
 * Lines the summary does not already say: a regex's match (when it says more than the pattern), and a
 * frame still drawing at the bound. The summary names the anyOf index and how an exit ended the wait.
 */
export function waitLines(wait: WaitOutcome, prefix = ""): string[] {
  const lines: string[] = [];
  if (wait.matched && wait.match !== undefined && wait.match !== null && wait.match !== wait.pattern)
    lines.push(`${prefix}match: ${JSON.stringify(wait.match)}`);
  if (wait.frameUnfinished)
    lines.push(
      `${prefix}still drawing ${wait.frameMs} ms after the match (returned at the bound; the screen may change)`,
    );
  return lines;
}
