// What the Agent panel keeps while its view is hidden, and where. The scroll position, meter toggle,
// open disclosures and view go to the webview's state (lib/savedState.ts); the draft, the setup form's
// unsaved fields and the error line are kept by the host (protocol/panelMemory.ts): VS Code writes the
// webview's state to disk as it is, and they may hold a key. Not reactive: a change here renders nothing.
import type { InitPayload } from '../protocol/messages';
import type { PanelMemory } from '../protocol/panelMemory';
import type { HostConnection } from './host';
import { EMPTY_STATE, hasUnhashedDisclosures, legacyDraft, readSavedState, type SavedState } from './lib/savedState';

export class Kept {
  private host: HostConnection | undefined;
  private savedState: SavedState = { ...EMPTY_STATE };
  /** The composer's text as the host last heard it. */
  private draftText = '';
  /** A draft an earlier version left in the webview's state: handed to the host once, then dropped. */
  private legacy = '';
  /** What the host keeps for the panel while it is hidden (protocol/panelMemory.ts). */
  private hostMemory: PanelMemory = {};

  get saved(): SavedState {
    return this.savedState;
  }

  get draft(): string {
    return this.draftText;
  }

  get memory(): PanelMemory {
    return this.hostMemory;
  }

  /** Reads the webview's state once the panel is connected to the host. */
  connect(host: HostConnection): void {
    this.host = host;
    const raw = host.getState();
    this.savedState = readSavedState(raw);
    this.legacy = legacyDraft(raw);
    // Written back at once: a draft or call ids an earlier version stored do not stay on disk.
    if (this.legacy !== '' || hasUnhashedDisclosures(raw)) host.setState(this.savedState);
  }

  /** Takes what the host kept for the panel, from its `init`. */
  received(payload: InitPayload): void {
    this.draftText = payload.draft ?? '';
    if (this.legacy !== '' && this.draftText === '') this.keepDraft(this.legacy);
    this.legacy = '';
    this.hostMemory = payload.memory ?? {};
  }

  save(part: Partial<SavedState>): void {
    this.savedState = { ...this.savedState, ...part };
    this.host?.setState(this.savedState);
  }

  keepDraft(text: string): void {
    this.draftText = text;
    // Not through `forward`: typing must neither clear nor show the panel's error line.
    this.host?.request('saveDraft', { text }).catch(() => undefined);
  }

  /** Has the host keep `part` of the panel's memory while the view is hidden (not through `forward`). */
  remember(part: Partial<PanelMemory>): void {
    const next: PanelMemory = { ...this.hostMemory, ...part };
    for (const k of Object.keys(next) as (keyof PanelMemory)[]) if (next[k] === undefined) delete next[k];
    this.hostMemory = next;
    this.host?.request('keepMemory', next).catch(() => undefined);
  }
}
