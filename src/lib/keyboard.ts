/**
 * What the keyboard input tools and the library's Terminal send, on a session: key chords encoded
 * from the terminal's live modes, literal text, repeated keys and paced typing. One piece of code
 * per input; the MCP tools and `Terminal` both call these inside `observeInput`.
 */
import { cancelled, TuiError } from "../errors.ts";
import { encodeKey, type KeySpec } from "../keys/index.ts";
import type { Session } from "../session/session.ts";

const utf8 = new TextEncoder();

/** Most bytes one input call may carry (send_text, paste, send_raw, type_text). */
export const MAX_INPUT_BYTES = 1024 * 1024;

/** Refuse a payload over MAX_INPUT_BYTES before anything is sent. */
export function checkPayload(tool: string, field: string, bytes: number): void {
  if (bytes > MAX_INPUT_BYTES) {
    throw new TuiError(
      "INVALID_ARGUMENT",
      `${tool}.${field} is ${bytes} bytes; one call takes at most ${MAX_INPUT_BYTES} (1 MiB).`,
      `Split it into several ${tool} calls of at most 1 MiB each ` +
        "(run_script can send them in order with no round trips).",
    );
  }
}

/** Write bytes (nothing for an empty payload); returns how many were sent. */
export function sendBytes(session: Session, bytes: Uint8Array): number {
  if (bytes.length > 0) session.write(bytes);
  return bytes.length;
}

/** Parsed chords, encoded for the modes the app has switched on now (DECCKM, keypad, kitty flags). */
export function sendKeys(
  session: Session,
  specs: KeySpec[],
): { keyCount: number; bytesSent: number; specs: KeySpec[] } {
  const modes = session.emulator.keyboardModes();
  const bytes = utf8.encode(specs.map((spec) => encodeKey(spec, modes)).join(""));
  return { keyCount: specs.length, bytesSent: sendBytes(session, bytes), specs };
}

export function sendText(session: Session, text: string): { bytesSent: number } {
  return { bytesSent: sendBytes(session, utf8.encode(text)) };
}

/** Where a saved test's secret comes from: `${env:TUI_SECRET_1}` in a secret text reads that variable. */
const SECRET_PLACEHOLDER = /\$\{env:(TUI_SECRET_\w+)\}/g;

/** A secret text as the program gets it: placeholders replaced from the environment (a missing one fails). */
export function secretText(text: string, env: Record<string, string | undefined> = process.env): string {
  return text.replace(SECRET_PLACEHOLDER, (_, name: string) => {
    const value = env[name];
    if (value === undefined)
      throw new TuiError(
        "INVALID_ARGUMENT",
        `The secret text reads \${env:${name}}, and ${name} is not set.`,
        `Set ${name} in the environment of the test run (a CI secret); save_test never writes the secret itself.`,
      );
    return value;
  });
}

/**
 * Text that must not be kept: it reaches the program, but input listeners (recordings) are told it is
 * secret, and the result says only how long it was.
 */
export function sendSecretText(session: Session, text: string): { bytesSent: number; secretChars: number } {
  const real = secretText(text);
  const bytes = utf8.encode(real);
  if (bytes.length > 0) session.write(bytes, "agent", { secret: true });
  return { bytesSent: bytes.length, secretChars: [...real].length };
}

/** The summaries input results start with, the same from a tool and from `Terminal`. */
export const describeKeys = (r: { keyCount: number; bytesSent: number }) =>
  `Sent ${r.keyCount} key(s), ${r.bytesSent} bytes`;
export const describeText = (r: { bytesSent: number; secretChars?: number }) =>
  r.secretChars !== undefined ? `Sent text (secret, ${r.secretChars} chars)` : `Sent ${r.bytesSent} bytes of text`;
export const describeTyping = (r: { chars: number; durationMs: number; untyped?: number }) =>
  `Typed ${r.chars} characters in ${r.durationMs} ms` +
  (r.untyped ? `; the session exited with ${r.untyped} left untyped` : "");

/** Sleep that ends early (with an error) when the request is cancelled. */
async function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) throw cancelled("The input");
  await Bun.sleep(ms);
}

/** Key repeat: the chord every intervalMs for durationMs (at least once), re-encoded each time. */
export async function holdKey(
  session: Session,
  spec: KeySpec,
  timing: { durationMs: number; intervalMs: number },
  signal?: AbortSignal,
) {
  const started = performance.now();
  let events = 0;
  let bytesSent = 0;
  while (events === 0 || performance.now() - started + timing.intervalMs <= timing.durationMs) {
    bytesSent += sendBytes(session, utf8.encode(encodeKey(spec, session.emulator.keyboardModes())));
    events++;
    await pause(Math.max(0, started + events * timing.intervalMs - performance.now()), signal);
    if (!session.running) break;
  }
  return { events, bytesSent, spec, durationMs: Math.round(performance.now() - started) };
}

/** Type a character at a time, `cps` per second; a session that exits mid-way ends the typing. */
export async function typeChars(session: Session, text: string, cps: number, signal?: AbortSignal) {
  const started = performance.now();
  const chars = [...text];
  let typed = 0;
  let bytesSent = 0;
  for (const [i, ch] of chars.entries()) {
    if (i > 0) await pause(Math.max(0, started + (i * 1000) / cps - performance.now()), signal);
    if (!session.running) break;
    bytesSent += sendBytes(session, utf8.encode(ch));
    typed++;
  }
  // `chars` counts what was typed.
  const untyped = chars.length - typed;
  return {
    chars: typed,
    bytesSent,
    cps,
    durationMs: Math.round(performance.now() - started),
    ...(untyped > 0 ? { untyped } : {}),
  };
}
