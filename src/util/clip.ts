/** Bounds on how much user input an error message may echo back (docs/design.md: everything is bounded). */

/** Most characters of one user-supplied value an error may quote. */
export const MAX_ECHO_CHARS = 200;

/** `text` cut to `max` characters, saying how long it was. */
export function clip(text: string, max = MAX_ECHO_CHARS): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 40)}… (${text.length} characters in all)`;
}

/**
 * Clip every quoted run longer than `max` in a message, and the message as a whole to a few echoes'
 * worth, so an error never carries a large argument back to the client.
 */
export function clipMessage(message: string, max = MAX_ECHO_CHARS): string {
  const quoted = message.replace(/"([^"]{200,})"/g, (_, inner: string) => `"${clip(inner, max)}"`);
  return clip(quoted, max * 5);
}

/** What a result says of an error: its code, and message and hint clipped (the one place both are built). */
export interface ErrorSummary {
  code: string;
  message: string;
  hint?: string;
}

export function errorSummary(error: { code: string; message: string; hint?: string }): ErrorSummary {
  return {
    code: error.code,
    message: clipMessage(error.message),
    ...(error.hint ? { hint: clipMessage(error.hint) } : {}),
  };
}
