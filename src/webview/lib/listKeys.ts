// Keyboard movement in a one-tab-stop list (VS Code's lists, the ARIA listbox pattern): arrows move by
// one, Page Up/Down by a screenful, Home/End to the ends. Pure, so the windowed History can scroll a row
// into the DOM before focusing it.

/** The index focus moves to for `key`, or undefined when the key is not a list movement. */
export function listMove(key: string, current: number, count: number, page: number): number | undefined {
  if (count <= 0) return undefined;
  const at = Math.min(Math.max(0, current), count - 1);
  const step = Math.max(1, page);
  const to: Record<string, number> = {
    ArrowDown: at + 1,
    ArrowUp: at - 1,
    PageDown: at + step,
    PageUp: at - step,
    Home: 0,
    End: count - 1,
  };
  const next = to[key];
  return next === undefined ? undefined : Math.min(Math.max(0, next), count - 1);
}

/** Pixels an arrow key scrolls (Chromium's own step). */
const LINE = 40;

/**
 * Where a key scrolls a scrolling box (the conversation) to, or undefined when the key does not scroll it:
 * arrows by a line, Page Up/Down and Space by a screen less a line, Home/End to the ends.
 */
export function scrollMove(key: string, shift: boolean, top: number, view: number, height: number): number | undefined {
  const page = Math.max(LINE, view - LINE);
  const to: Record<string, number> = shift
    ? { ' ': top - page }
    : {
        ArrowDown: top + LINE,
        ArrowUp: top - LINE,
        PageDown: top + page,
        PageUp: top - page,
        ' ': top + page,
        Home: 0,
        End: height,
      };
  const next = to[key];
  return next === undefined ? undefined : Math.min(Math.max(0, next), Math.max(0, height - view));
}
