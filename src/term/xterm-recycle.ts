/**
 * One runtime fix to @xterm/headless: `BufferLine.copyFrom` without garbage.
 *
 * Once a terminal's scrollback is full, every line feed recycles the oldest line with
 * `copyFrom(blankLine)`, and xterm.js 6's copyFrom allocates two fresh objects (`_combined` and
 * `_extendedAttrs`) each time. A session flooding `yes` scrolls millions of lines a second, so eight
 * floods made ~2 M short-lived objects/s, and JSC let the heap grow to 3× its live size before
 * collecting: the server peaked at 400–470 MiB with 134 MiB live (bench/README.md, the engine under pressure).
 * This copy keeps the target's own objects when they are empty, which recycled lines nearly always
 * are, and otherwise behaves exactly as the original (the lines never share these objects: clone and
 * copyFrom always give each line its own).
 *
 * It is applied to the prototype at load, not with a patch file, because `bunx tui-tester` installs
 * @xterm/headless unpatched from npm. If a later xterm.js changes the shape, the fix stands aside.
 */
import { log } from "../util/log.ts";

export interface BufferLineShape {
  _data: Uint32Array;
  _combined: Record<number, string>;
  _extendedAttrs: Record<number, unknown>;
  length: number;
  isWrapped: boolean;
  copyFrom(line: BufferLineShape): void;
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/** xterm.js 6.0's copyFrom, minus the two allocations per call. */
function copyFromReusing(this: BufferLineShape, line: BufferLineShape): void {
  if (this.length !== line.length) this._data = new Uint32Array(line._data);
  else this._data.set(line._data);
  this.length = line.length;
  if (!isEmpty(this._combined)) this._combined = {};
  for (const key in line._combined) this._combined[key] = line._combined[key]!;
  if (!isEmpty(this._extendedAttrs)) this._extendedAttrs = {};
  for (const key in line._extendedAttrs) this._extendedAttrs[key] = line._extendedAttrs[key];
  this.isWrapped = line.isWrapped;
}

function looksLikeBufferLine(line: unknown): line is BufferLineShape {
  const l = line as Partial<BufferLineShape> | undefined;
  return (
    l !== undefined &&
    l._data instanceof Uint32Array &&
    typeof l._combined === "object" &&
    typeof l._extendedAttrs === "object" &&
    typeof l.length === "number" &&
    typeof l.isWrapped === "boolean" &&
    typeof l.copyFrom === "function"
  );
}

/** The fields copyFromReusing sets: an original that assigns any other field is a newer copyFrom than this one. */
const COPIED_FIELDS = new Set(["_data", "length", "_combined", "_extendedAttrs", "isWrapped"]);

function copiesOnlyKnownFields(copyFrom: (line: BufferLineShape) => void): boolean {
  const assigned = [...copyFrom.toString().matchAll(/this\.(\w+)\s*=[^=]/g)].map((m) => m[1]!);
  return assigned.length > 0 && assigned.every((field) => COPIED_FIELDS.has(field));
}

/** The prototype's copyFrom before the fix (tests compare the two). */
export let originalCopyFrom: BufferLineShape["copyFrom"] | undefined;
let outcome: boolean | undefined;

/** Install the fix on the BufferLine class behind `terminal` (an @xterm/headless Terminal); checks once. */
export function installLineRecycling(terminal: unknown): boolean {
  if (outcome !== undefined) return outcome;
  const core = (terminal as { _core?: { _bufferService?: { buffer?: { lines?: { get(i: number): unknown } } } } })
    ._core;
  const line = core?._bufferService?.buffer?.lines?.get(0);
  const proto = looksLikeBufferLine(line) ? (Object.getPrototypeOf(line) as BufferLineShape) : undefined;
  if (proto === undefined || !copiesOnlyKnownFields(proto.copyFrom)) {
    log("xterm.js BufferLine.copyFrom is not the one this fix replaces; line recycling left as shipped");
    return (outcome = false);
  }
  originalCopyFrom = proto.copyFrom;
  proto.copyFrom = copyFromReusing;
  return (outcome = true);
}
