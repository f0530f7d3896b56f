// What the panel keeps in VS Code's webview state while the view is hidden. The stored value comes
// back as `unknown` (and may be from an older panel), so it is read field by field, never trusted.
// VS Code writes this state to the workspace storage on disk unredacted: it holds no text the user or a
// model wrote (the composer's draft is kept by the host) and no provider's call id (hashed).
import type { PanelView } from '../../protocol/messages';
import { MAX_DISCLOSURES } from './disclosures';

export interface ScrollState {
  top: number;
  /** True when the view was following the newest output. */
  stick: boolean;
  /** The chat the position belongs to: another chat (a new one after a restart) starts at the bottom. */
  session?: string;
}

/** The disclosures the user opened or closed in one chat (lib/disclosures.ts). */
export interface DisclosureState {
  session: string;
  chosen: [string, boolean][];
}

export interface SavedState {
  scroll?: ScrollState;
  disclosures?: DisclosureState;
  /** The meter's details are open. */
  meterOpen: boolean;
  view: PanelView;
}

export const EMPTY_STATE: SavedState = { meterOpen: false, view: 'chat' };

const VIEWS: readonly PanelView[] = ['chat', 'setup', 'history'];

/** A view this panel has (a newer host may name one it does not). */
export const isPanelView = (v: unknown): v is PanelView => VIEWS.includes(v as PanelView);

/** A disclosure's key as lib/disclosures.ts hashes it; an earlier panel kept the call id itself. */
const HASHED_KEY = /^h[0-9a-z]{1,12}$/;

/** The state holds disclosures an earlier panel keyed by call id (to be written over at once). */
export function hasUnhashedDisclosures(raw: unknown): boolean {
  if (typeof raw !== 'object' || raw === null) return false;
  const chosen = ((raw as Record<string, unknown>).disclosures as Record<string, unknown> | undefined)?.chosen;
  return (
    Array.isArray(chosen) && chosen.some((c) => !Array.isArray(c) || typeof c[0] !== 'string' || !HASHED_KEY.test(c[0]))
  );
}

export function readSavedState(raw: unknown): SavedState {
  if (typeof raw !== 'object' || raw === null) return { ...EMPTY_STATE };
  const r = raw as Record<string, unknown>;
  const state: SavedState = {
    meterOpen: r.meterOpen === true,
    view: isPanelView(r.view) ? r.view : 'chat',
  };
  const scroll = r.scroll as Record<string, unknown> | undefined;
  if (typeof scroll === 'object' && scroll !== null && Number.isFinite(scroll.top) && (scroll.top as number) >= 0) {
    state.scroll = {
      top: scroll.top as number,
      stick: scroll.stick === true,
      ...(typeof scroll.session === 'string' ? { session: scroll.session } : {}),
    };
  }
  const d = r.disclosures as Record<string, unknown> | undefined;
  if (typeof d === 'object' && d !== null && typeof d.session === 'string' && Array.isArray(d.chosen)) {
    const chosen = d.chosen.filter(
      (c): c is [string, boolean] =>
        Array.isArray(c) &&
        c.length === 2 &&
        typeof c[0] === 'string' &&
        HASHED_KEY.test(c[0]) &&
        typeof c[1] === 'boolean',
    );
    state.disclosures = { session: d.session, chosen: chosen.slice(-MAX_DISCLOSURES) };
  }
  return state;
}

/** The disclosures saved for this chat (none for another one). */
export function disclosuresFor(state: SavedState, session: string): [string, boolean][] {
  return state.disclosures?.session === session ? state.disclosures.chosen : [];
}

/** The saved position applies only to the chat it was saved for. */
export function scrollFor(state: SavedState, session: string): ScrollState | undefined {
  return state.scroll && state.scroll.session === session ? state.scroll : undefined;
}

/** The draft an earlier version of the panel stored in the state ('' when none). */
export function legacyDraft(raw: unknown): string {
  if (typeof raw !== 'object' || raw === null) return '';
  const draft = (raw as Record<string, unknown>).draft;
  return typeof draft === 'string' ? draft : '';
}
