// What the panel keeps in VS Code's webview state while the view is hidden. The stored value comes
// back as `unknown` (and may be from an older panel), so it is read field by field, never trusted.

export interface ScrollState {
  top: number;
  /** True when the view was following the newest output. */
  stick: boolean;
}

export interface SavedState {
  draft: string;
  scroll?: ScrollState;
  contextOpen: boolean;
}

export const EMPTY_STATE: SavedState = { draft: '', contextOpen: true };

export function readSavedState(raw: unknown): SavedState {
  if (typeof raw !== 'object' || raw === null) return { ...EMPTY_STATE };
  const r = raw as Record<string, unknown>;
  const state: SavedState = {
    draft: typeof r.draft === 'string' ? r.draft : '',
    contextOpen: r.contextOpen !== false,
  };
  const scroll = r.scroll as Record<string, unknown> | undefined;
  if (typeof scroll === 'object' && scroll !== null && Number.isFinite(scroll.top) && (scroll.top as number) >= 0) {
    state.scroll = { top: scroll.top as number, stick: scroll.stick === true };
  }
  return state;
}
