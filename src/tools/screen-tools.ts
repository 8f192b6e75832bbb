/** Reading the screen: snapshot, get_text, get_cursor, get_raw_output, diff_snapshots; and resize. */
import * as v from "valibot";
import { TuiError } from "../errors.ts";
import { freshView } from "../session/observe.ts";
import { MAX_CELLS } from "../term/cells.ts";
import { diffSnapshots } from "../term/diff.ts";
import { MAX_COLS, MAX_ROWS } from "../term/size.ts";
import type { Session } from "../session/session.ts";
import type { Snapshot } from "../term/types.ts";
import { annotations, defineSessionTool, defineTool, type ToolContext } from "./define.ts";
import { inputReply } from "./input-reply.ts";
import { mergeParts, snapshotBlocks, viewParts } from "./reply.ts";
import { noteShown } from "./shown-screen.ts";
import { observeEntries, positiveInt, scrollbackEntries, sessionId, snapshotFormat } from "./schemas.ts";
import { B, diffShape, N, observedOutput, S, shape, strings, unlisted, viewOutput } from "./output-shape.ts";
import type { CellsResult } from "../term/types.ts";

/** `droppedBytes` when output never reached the screen (the engine's flow-control limit), else nothing. */
export function dropped(session: Session): { droppedBytes?: number } {
  const bytes = session.droppedBytes;
  return bytes > 0 ? { droppedBytes: bytes } : {};
}

const cellIndex = () => v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1000)));
const region = v.optional(
  v.pipe(
    v.strictObject({
      row: cellIndex(),
      col: cellIndex(),
      rows: cellIndex(),
      cols: cellIndex(),
    }),
    v.description("Cells only: row, col (0-based, default 0), rows, cols (default: to the edge); clamped."),
  ),
);

/** A snapshot's text: dropped bytes, the screen and highlights, then ANSI, cells and the buffer. */
function snapParts(snap: Snapshot, session: Session, ctx: ToolContext) {
  noteShown(session, snap);
  const blocks = snapshotBlocks(snap, ctx.config.output === "text");
  return mergeParts({ fields: dropped(session) }, viewParts(snap), { blocks });
}

export const snapshotTool = defineSessionTool({
  name: "snapshot",
  // the whole screen read: its shapes (cursor, highlights, scrollback) are the ones others point at
  describes: { outputs: 0 },
  scriptable: true,
  output: shape({ ...viewOutput, lines: strings, ansi: S }, unlisted<{ cells: CellsResult; droppedBytes: number }>()),
  description:
    `Screen text, cursor, highlights; format ansi adds SGR colours, cells attribute runs per row ` +
    `(at most ${MAX_CELLS} cells; region picks a part). includeScrollback adds the buffer.`,
  input: v.strictObject({ sessionId, format: snapshotFormat, region, ...scrollbackEntries }),
  annotations: annotations("Snapshot", "read"),
  allowExited: true,
  async act(session, args, ctx) {
    const snap = await session.emulator.settledSnapshot({
      format: args.format,
      region: args.region,
      highlights: true,
      includeScrollback: args.includeScrollback,
      maxScrollbackLines: args.maxScrollbackLines,
    });
    // grid is for renderers inside the server, never asked for here
    const { grid: _grid, ...shown } = snap;
    const cut = snap.cells?.truncated
      ? `; cells cut after row ${snap.cells.region.row + snap.cells.region.rows - 1}, ` +
        `ask again with region.row ${snap.cells.region.row + snap.cells.region.rows}`
      : "";
    return {
      summary:
        `${snap.cols}x${snap.rows} screen, cursor at ` +
        `${snap.cursor.row},${snap.cursor.col}` +
        `${snap.scrollback ? `, ${snap.scrollback.totalLines} buffer lines` : ""}${cut}`,
      data: { sessionId: session.id, ...shown, ...dropped(session) },
      parts: snapParts(snap, session, ctx),
    };
  },
});

export const getTextTool = defineSessionTool({
  name: "get_text",
  scriptable: true,
  output: shape(viewOutput, unlisted<{ droppedBytes: number }>()),
  description: "Visible screen text only (smaller than snapshot). includeScrollback adds the whole buffer.",
  input: v.strictObject({ sessionId, ...scrollbackEntries }),
  annotations: annotations("Get text", "read"),
  allowExited: true,
  async act(session, args, ctx) {
    const snap = await session.emulator.settledSnapshot({
      format: "text",
      highlights: true,
      includeScrollback: args.includeScrollback,
      maxScrollbackLines: args.maxScrollbackLines,
    });
    const data = {
      sessionId: session.id,
      text: snap.text,
      cols: snap.cols,
      rows: snap.rows,
      cursor: snap.cursor,
      highlights: snap.highlights,
      ...dropped(session),
      ...(snap.scrollback ? { scrollback: snap.scrollback } : {}),
    };
    return {
      summary: `${snap.lines.filter((l) => l.length > 0).length} non-empty rows`,
      data,
      parts: snapParts(snap, session, ctx),
    };
  },
});

export const getCursorTool = defineSessionTool({
  name: "get_cursor",
  output: shape({ row: N, col: N, visible: B }),
  description: "Cursor position (0-based row, col) and visibility.",
  input: v.strictObject({ sessionId }),
  annotations: annotations("Get cursor", "read"),
  allowExited: true,
  async act(session) {
    const { cursor } = await freshView(session);
    return {
      summary: `Cursor at row ${cursor.row}, col ${cursor.col}${cursor.visible ? "" : " (hidden)"}`,
      data: { sessionId: session.id, ...cursor },
    };
  },
});

export const getRawOutputTool = defineSessionTool({
  name: "get_raw_output",
  output: shape(
    { output: S, bytes: N, returnedBytes: N, truncated: B },
    unlisted<{ encoding: string; retainedBytes: number; evictedBytes: number }>(),
  ),
  description: "Raw bytes the program wrote (escapes included): the newest maxBytes of the kept buffer.",
  input: v.strictObject({
    sessionId,
    maxBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16 * 1024 * 1024)), 65_536),
    tailBytes: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(16 * 1024 * 1024), v.description("Alias of maxBytes.")),
    ),
    encoding: v.optional(v.picklist(["utf8", "base64", "hex"]), "utf8"),
  }),
  annotations: annotations("Get raw output", "read"),
  allowExited: true,
  async act(session, args) {
    const bytes = session.raw.tail(args.tailBytes ?? args.maxBytes);
    const output =
      args.encoding === "utf8" ? new TextDecoder().decode(bytes) : Buffer.from(bytes).toString(args.encoding);
    const truncated = bytes.length < session.raw.total;
    return {
      summary: `${bytes.length} of ${session.raw.total} bytes${truncated ? " (older output not returned)" : ""}`,
      data: {
        sessionId: session.id,
        bytes: session.raw.total,
        returnedBytes: bytes.length,
        retainedBytes: session.raw.size,
        evictedBytes: session.raw.dropped,
        truncated,
        encoding: args.encoding,
        output,
      },
    };
  },
});

const snapshotLike = v.looseObject({ text: v.optional(v.string()), lines: v.optional(v.array(v.string())) });

export const diffSnapshotsTool = defineTool({
  name: "diff_snapshots",
  output: shape(diffShape.entries),
  description: "Row diff of two screens you already have (text or lines, optional cursor/cols/rows).",
  input: v.strictObject({ before: snapshotLike, after: snapshotLike }),
  annotations: annotations("Diff snapshots", "read"),
  async run(args) {
    for (const side of ["before", "after"] as const) {
      if (args[side].text === undefined && args[side].lines === undefined) {
        throw new TuiError(
          "INVALID_ARGUMENT",
          `${side} has neither text nor lines.`,
          "Pass snapshot objects as returned by snapshot or get_text.",
        );
      }
    }
    // Flat, as the original returned it (identical, cursorMoved, resized, changedLines, addedRows, removedRows).
    const diff = diffSnapshots(args.before, args.after);
    const summary = diff.identical
      ? "Identical"
      : `${diff.changedLines.length} changed, ${diff.addedRows.length} added, ${diff.removedRows.length} removed rows`;
    return { summary, data: { ...diff }, parts: { diff: { diff, rows: "all" } } };
  },
});

export const resizeTool = defineSessionTool({
  name: "resize",
  history: "input",
  scriptable: true,
  output: shape({ ...observedOutput, cols: N, rows: N }, unlisted<{ from: { cols: number; rows: number } }>()),
  description: "Resize PTY and emulator (the app gets SIGWINCH); returns the re-laid-out screen.",
  input: v.strictObject({ sessionId, cols: positiveInt(MAX_COLS), rows: positiveInt(MAX_ROWS), ...observeEntries }),
  annotations: annotations("Resize", "write", true),
  act(session, args, ctx) {
    const from = { cols: session.cols, rows: session.rows };
    return inputReply(
      session,
      args,
      ctx,
      () => {
        session.resize(args.cols, args.rows);
        return { from, cols: args.cols, rows: args.rows };
      },
      () => `Resized ${from.cols}x${from.rows} -> ${args.cols}x${args.rows}`,
    );
  },
});
