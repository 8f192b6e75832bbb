/** Public API of the key layer: parse key chords, encode them for the terminal's keyboard modes. */
export { parseKey, parseKeys } from "./parse.ts";
export { encodeKey } from "./encode.ts";
export { encodeKitty, KITTY_FLAGS } from "./kitty.ts";
export { keyAliases, keyNames, type Modifier, modifierAliases } from "./names.ts";
export { type KeyboardModes, type KeySpec, type KeySpecInput, LEGACY_MODES } from "./types.ts";
