/** Reading asciicast v2 files in tests. */
import { readFileSync } from "node:fs";

export type CastEvent = [number, string, string];

/** Header and events of an asciicast v2 file; every line must be JSON (a torn last line would fail here). */
export function readCast(path: string): { header: Record<string, any>; events: CastEvent[] } {
  const lines = readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const [header, ...events] = lines.map((l) => JSON.parse(l));
  return { header, events: events as CastEvent[] };
}

/** The concatenated output ("o") events. */
export const outputOf = (events: CastEvent[]) =>
  events
    .filter(([, code]) => code === "o")
    .map(([, , d]) => d)
    .join("");
