/** A parsed key chord: one key plus modifiers, in canonical form. */
export interface KeySpec {
  /**
   * Canonical key name: a single character ("a", "A", "1", "!", " ", "["), or a named key:
   * "Enter", "Tab", "Escape", "Backspace", "Space", "ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight",
   * "Home", "End", "Insert", "Delete", "PageUp", "PageDown", "F1".."F24".
   */
  key: string;
  ctrl: boolean;
  shift: boolean;
  alt: boolean;
  meta: boolean;
}

/** What the caller may pass instead of a string: `{ key: "F5", ctrl: true }`. */
export interface KeySpecInput {
  key: string;
  ctrl?: boolean;
  shift?: boolean;
  alt?: boolean;
  meta?: boolean;
}

/** Terminal modes that change what bytes a key sends (xterm ctlseqs; kitty keyboard protocol). */
export interface KeyboardModes {
  /** DECCKM, `CSI ? 1 h`: unmodified arrows/Home/End send SS3 (`ESC O A`). */
  applicationCursorKeys: boolean;
  /** DECKPAM, `ESC =`. Recorded for reporting; this encoder has no keypad keys. */
  applicationKeypad: boolean;
  /** Current kitty keyboard protocol flags (0 = legacy encoding). */
  kittyFlags: number;
}

export const LEGACY_MODES: KeyboardModes = { applicationCursorKeys: false, applicationKeypad: false, kittyFlags: 0 };
