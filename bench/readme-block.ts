/**
 * Published figures are regenerated, not hand-copied: a bench's `--write` replaces the block between
 * `<!-- NAME:start ... -->` and `<!-- NAME:end -->` in a markdown file with what it just measured.
 */
import { readFileSync, writeFileSync } from "node:fs";

export function writeBlock(file: string, name: string, body: string): void {
  const text = readFileSync(file, "utf8");
  const start = new RegExp(`<!-- ${name}:start[^>]*-->\\n`);
  const open = start.exec(text);
  const close = text.indexOf(`<!-- ${name}:end -->`);
  if (!open || close < open.index)
    throw new Error(`${file} has no <!-- ${name}:start --> ... <!-- ${name}:end --> block`);
  const from = open.index + open[0].length;
  writeFileSync(file, `${text.slice(0, from)}${body.trimEnd()}\n${text.slice(close)}`);
  process.stderr.write(`wrote the ${name} block of ${file}\n`);
}

/** The block's current body, for checks that the published figures are the code's. */
export function readBlock(file: string, name: string): string | undefined {
  const text = readFileSync(file, "utf8");
  const open = new RegExp(`<!-- ${name}:start[^>]*-->\\n`).exec(text);
  const close = text.indexOf(`<!-- ${name}:end -->`);
  return open && close > open.index ? text.slice(open.index + open[0].length, close).trimEnd() : undefined;
}

/** 8441 -> "8,441". */
export const thousands = (n: number | null) => (n === null ? "skipped" : n.toLocaleString("en-US"));

/** "2026-12-03, <short commit>" for the figures' heading. */
export function stamp(): string {
  const commit = Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: import.meta.dir })
    .stdout.toString()
    .trim();
  return `${new Date().toISOString().slice(0, 10)}, commit ${commit || "unknown"}`;
}
