/**
 * The screen a session's replies last printed whole: the model's picture of that session's screen. With
 * screenDetail "auto" an input's reply gives only the rows that differ from it, so the model's picture
 * (that screen plus the listed rows) is the after-screen without the unchanged rows printed again.
 * Whatever prints a session's whole current screen notes it here.
 */
import type { ScreenView } from "../session/observe.ts";
import type { Session } from "../session/session.ts";
import type { Highlight } from "../term/types.ts";

declare module "../session/session.ts" {
  interface SessionExtras {
    /** The last whole screen a reply printed for the session (or gave as changes to the one before). */
    shownScreen: ShownScreen;
  }
}

export type ShownScreen = Pick<ScreenView, "text" | "cols" | "rows" | "cursor"> & {
  highlights: readonly Highlight[];
};

/** `view`: the screen a reply prints, highlights included when it lists them (a screen without any lists none). */
export function noteShown(
  session: Session,
  view: Omit<ShownScreen, "highlights"> & { highlights?: readonly Highlight[] },
): void {
  const { text, cols, rows, cursor, highlights = [] } = view;
  session.extras.shownScreen = { text, cols, rows, cursor, highlights };
}

export function forgetShown(session: Session): void {
  delete session.extras.shownScreen;
}

export const lastShown = (session: Session): ShownScreen | undefined => session.extras.shownScreen;
