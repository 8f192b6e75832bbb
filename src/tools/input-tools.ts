/** Keyboard input tools: send_keys, send_text, send_raw, hold_key, type_text. */
import * as v from "valibot";
import { TuiError } from "../errors.ts";
import { parseKey, parseKeys } from "../keys/index.ts";
import {
  checkPayload,
  describeKeys,
  describeText,
  describeTyping,
  holdKey,
  sendBytes,
  sendKeys,
  sendSecretText,
  sendText,
  typeChars,
} from "../lib/keyboard.ts";
import { clip } from "../util/clip.ts";
import { annotations, defineSessionTool } from "./define.ts";
import { inputReply } from "./input-reply.ts";
import {
  clampedNumber,
  KEY_DESCRIPTION,
  keySpec,
  listedAs,
  observeEntries,
  optionalBoolean,
  sessionId,
} from "./schemas.ts";
import { N, observedOutput, shape, unlisted } from "./output-shape.ts";
import type { KeySpec } from "../keys/types.ts";

/** flushAfter (original version): the screen is always read after the parser has flushed. */
const FLUSH_COMPAT = { flushAfter: null };

export const sendKeysTool = defineSessionTool({
  name: "send_keys",
  history: "input",
  // the observe options in full, and a key chord (hold_key.key is one entry of keys)
  describes: {
    inputs: {
      captureScreen: "captureScreen",
      waitAfterMs: "waitAfterMs",
      waitFor: "waitFor",
      screenDetail: "screenDetail",
      key: "keys",
    },
    outputs: 1,
  },
  scriptable: true,
  output: shape({ ...observedOutput, keyCount: N }, unlisted<{ specs: KeySpec[] }>()),
  description:
    "Send key chords as xterm encodes them. Returns the changed rows and the screen " +
    "after. Its observe options (captureScreen, waitAfterMs, waitFor, screenDetail) " +
    "apply to every input tool.",
  input: v.strictObject({
    sessionId,
    // Listed as a list of chords; one chord as a plain string is also accepted.
    keys: listedAs(v.union([keySpec, v.pipe(v.array(keySpec), v.minLength(1), v.maxLength(10_000))]), {
      type: "array",
      items: { type: "string", minLength: 1 },
      minItems: 1,
      maxItems: 10_000,
      description: `Key chords, sent in order. Each is ${KEY_DESCRIPTION[0]!.toLowerCase()}${KEY_DESCRIPTION.slice(1)}`,
    }),
    ...observeEntries,
  }),
  annotations: annotations("Send keys", "write"),
  compat: FLUSH_COMPAT,
  // Parse every key before sending any, so one typo sends nothing.
  check: (args) => void parseKeys(args.keys),
  act(session, args, ctx) {
    const specs = parseKeys(args.keys);
    return inputReply(session, args, ctx, () => sendKeys(session, specs), describeKeys, [
      "keyCount",
      "specs",
      "bytesSent",
    ]);
  },
});

export const sendTextTool = defineSessionTool({
  name: "send_text",
  history: "input",
  scriptable: true,
  output: shape(observedOutput, unlisted<{ secretChars: number }>()),
  description:
    'Write literal text at once, no key parsing ("\\n" stays LF; Enter is "\\r"). ' +
    "At most 1 MiB; empty text only observes.",
  input: v.strictObject({
    sessionId,
    text: v.string(),
    secret: optionalBoolean(false, "Not kept in history, tests, recordings."),
    ...observeEntries,
  }),
  annotations: annotations("Send text", "write"),
  compat: FLUSH_COMPAT,
  check: (args) => checkPayload("send_text", "text", Buffer.byteLength(args.text)),
  act(session, args, ctx) {
    const send = () => (args.secret ? sendSecretText(session, args.text) : sendText(session, args.text));
    return inputReply(session, args, ctx, send, describeText, ["bytesSent", "secretChars"]);
  },
});

function decodeRaw(args: { hex?: string; base64?: string; utf8?: string }): Uint8Array {
  const given = (["hex", "base64", "utf8"] as const).filter((k) => args[k] !== undefined);
  if (given.length !== 1) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      given.length === 0
        ? "send_raw needs one of hex, base64 or utf8."
        : `send_raw takes exactly one of hex, base64, utf8; got ${given.join(" and ")}.`,
      'Example: { "hex": "1b5b41" } sends ESC [ A.',
    );
  }
  if (args.hex !== undefined) {
    const hex = args.hex.replace(/[\s:]/g, "").replace(/^0x/i, "");
    if (hex.length === 0 || hex.length % 2 !== 0 || /[^0-9a-f]/i.test(hex))
      throw new TuiError(
        "INVALID_ARGUMENT",
        `hex "${clip(args.hex, 60)}" is not an even-length string of hex digits.`,
        'Example: "1b5b41" (spaces and colons are ignored).',
      );
    return Uint8Array.from(hex.match(/../g) ?? [], (byte) => Number.parseInt(byte, 16));
  }
  if (args.base64 !== undefined) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(args.base64) || args.base64.length === 0)
      throw new TuiError(
        "INVALID_ARGUMENT",
        `base64 "${clip(args.base64, 60)}" is not valid base64.`,
        'Example: "Gw==" is ESC.',
      );
    return Uint8Array.from(Buffer.from(args.base64, "base64"));
  }
  if (!args.utf8) throw new TuiError("INVALID_ARGUMENT", "utf8 is empty.", "Pass at least one character.");
  return new TextEncoder().encode(args.utf8);
}

export const sendRawTool = defineSessionTool({
  name: "send_raw",
  history: "input",
  scriptable: true,
  output: shape(observedOutput, unlisted<{ hex: string }>()),
  description: 'Send bytes (at most 1 MiB) as exactly one of hex ("1b5b41"), base64 or utf8.',
  input: v.strictObject({
    sessionId,
    hex: v.optional(v.string()),
    base64: v.optional(v.string()),
    utf8: v.optional(v.string()),
    ...observeEntries,
  }),
  annotations: annotations("Send raw bytes", "write"),
  act(session, args, ctx) {
    const bytes = decodeRaw(args);
    checkPayload("send_raw", "bytes", bytes.length);
    return inputReply(
      session,
      args,
      ctx,
      () => ({ bytesSent: sendBytes(session, bytes), hex: Buffer.from(bytes.subarray(0, 64)).toString("hex") }),
      (r) => `Sent ${r.bytesSent} raw bytes`,
      ["hex", "bytesSent"],
    );
  },
});

export const holdKeyTool = defineSessionTool({
  name: "hold_key",
  history: "input",
  scriptable: true,
  output: shape({ ...observedOutput, events: N }, unlisted<{ durationMs: number; spec: KeySpec }>()),
  description:
    "Hold a key: repeat it every intervalMs for durationMs (key repeat, auto-scroll). The screen block spans the hold.",
  input: v.strictObject({
    sessionId,
    key: keySpec,
    durationMs: clampedNumber(1, 60_000, 500),
    intervalMs: clampedNumber(5, 5000, 30),
    ...observeEntries,
  }),
  annotations: annotations("Hold key", "write"),
  check: (args) => void parseKey(args.key),
  act(session, args, ctx) {
    const spec = parseKey(args.key);
    return inputReply(
      session,
      args,
      ctx,
      () => holdKey(session, spec, args, ctx.signal),
      (r) => `Held ${JSON.stringify(args.key)} for ${r.durationMs} ms (${r.events} repeats)`,
      ["spec"],
    );
  },
});

export const typeTextTool = defineSessionTool({
  name: "type_text",
  history: "input",
  scriptable: true,
  output: shape({ ...observedOutput, chars: N, untyped: N }, unlisted<{ cps: number; durationMs: number }>()),
  description: "Type text a character at a time at cps (at most 1 MiB), for apps that treat typing unlike a paste.",
  input: v.strictObject({
    sessionId,
    text: v.pipe(v.string(), v.minLength(1)),
    cps: clampedNumber(1, 1000, 40),
    ...observeEntries,
  }),
  annotations: annotations("Type text", "write"),
  check: (args) => checkPayload("type_text", "text", Buffer.byteLength(args.text)),
  act(session, args, ctx) {
    return inputReply(session, args, ctx, () => typeChars(session, args.text, args.cps, ctx.signal), describeTyping);
  },
});
