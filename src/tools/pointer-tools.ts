/** paste and mouse: input whose bytes depend on modes the app switched on. */
import * as v from "valibot";
import { checkPayload } from "../lib/keyboard.ts";
import { describePaste, MOUSE_ACTIONS, pasteText, planMouse } from "../lib/pointer.ts";
import { annotations, defineSessionTool } from "./define.ts";
import { inputReply } from "./input-reply.ts";
import { observeEntries, optionalBoolean, sessionId } from "./schemas.ts";
import { B, observedOutput, S, shape, unlisted } from "./output-shape.ts";

export const pasteTool = defineSessionTool({
  name: "paste",
  history: "input",
  scriptable: true,
  output: shape({ ...observedOutput, bracketed: B }, unlisted<{ sanitized: boolean }>()),
  description:
    "Paste text (at most 1 MiB), bracketed if the app enabled bracketed paste (mode 2004); the result says which.",
  input: v.strictObject({ sessionId, text: v.pipe(v.string(), v.minLength(1)), ...observeEntries }),
  annotations: annotations("Paste", "write"),
  check: (args) => checkPayload("paste", "text", Buffer.byteLength(args.text)),
  act(session, args, ctx) {
    return inputReply(session, args, ctx, () => pasteText(session, args.text), describePaste, [
      "bytesSent",
      "bracketed",
    ]);
  },
});

const target = {
  row: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  col: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  text: v.optional(v.pipe(v.string(), v.minLength(1))),
  regex: optionalBoolean(false),
};

export const mouseTool = defineSessionTool({
  name: "mouse",
  history: "input",
  scriptable: true,
  output: shape(
    { ...observedOutput, action: S },
    unlisted<{
      at: { row: number; col: number };
      to: { row: number; col: number };
      events: string[];
      tracking: string;
      encoding: string;
    }>(),
  ),
  description:
    "Mouse event at a cell (row, col; 0-based) or on text's first match (RegExp if regex); a drag " +
    "ends at toRow/toCol or toText. Needs the app's mouse tracking.",
  input: v.strictObject({
    sessionId,
    action: v.picklist(MOUSE_ACTIONS),
    button: v.optional(v.picklist(["left", "middle", "right"]), "left"),
    ...target,
    toRow: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    toCol: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
    toText: v.optional(v.pipe(v.string(), v.minLength(1))),
    shift: v.optional(v.boolean(), false),
    alt: v.optional(v.boolean(), false),
    ctrl: v.optional(v.boolean(), false),
    ...observeEntries,
  }),
  annotations: annotations("Mouse", "write"),
  async act(session, args, ctx) {
    const { send, describe } = await planMouse(session, args);
    return inputReply(session, args, ctx, send, describe);
  },
});
