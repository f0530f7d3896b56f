// <cd-app>: the Agent panel's root. One scrolling conversation takes all the height left; below it a
// fixed dock holds the approval prompt (where model output cannot reach it), the run's one-line status,
// the one-line context meter and the composer. The setup form and History replace the conversation
// when asked for. Holds the chat snapshot from the host (replaced on `init`/`chatSnapshot`, patched by
// `chatPatch`) and keeps the scroll position, meter toggle, open disclosures and view while the view is
// hidden; the draft, the setup form's unsaved fields and the error line are kept by the host (VS Code
// writes the webview's state to disk as it is, and they may hold a key).
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import type { ChatPatch, ChatSnapshot } from '../protocol/chat';
import { applyChatPatches } from '../protocol/chatPatch';
import type { InitPayload, PanelSettings, PanelView, WebviewNotifications } from '../protocol/messages';
import type { PanelMemory, SetupDraft } from '../protocol/panelMemory';
import { HOST_REQUEST, SHOW_VIEW, type HostRequestDetail } from './events';
import { HostConnection } from './host';
import { announcement } from './lib/announce';
import { statusText } from './lib/format';
import { deepActiveElement } from './lib/focus';
import { Disclosures, useDisclosures } from './lib/disclosures';
import {
  EMPTY_STATE,
  disclosuresFor,
  isPanelView,
  legacyDraft,
  readSavedState,
  scrollFor,
  type SavedState,
  type ScrollState,
} from './lib/savedState';
import './components/meter';
import './components/conversation';
import './components/approval';
import './components/composer';
import './components/welcome';
import { SETUP_DRAFT } from './components/setup-form';
import './components/history-list';
import type { CdConversation } from './components/conversation';
import type { CdComposer } from './components/composer';
import { codicons } from './components/codicons';

export class CdApp extends LitElement {
  static override properties = {
    init: { state: true },
    settings: { state: true },
    chat: { state: true },
    view: { state: true },
    error: { state: true },
    announced: { state: true },
  };

  declare init: InitPayload | undefined;
  declare settings: PanelSettings | undefined;
  declare chat: ChatSnapshot | undefined;
  declare view: PanelView;
  declare error: string | undefined;
  /** The live region's text (see lib/announce.ts). */
  declare announced: string;
  private host: HostConnection | undefined;
  private saved: SavedState = { ...EMPTY_STATE };
  /** The composer's text as the host last heard it. */
  private draft = '';
  /** A draft an earlier version left in the webview's state: handed to the host once, then dropped. */
  private legacy = '';
  /** What the host keeps for the panel while it is hidden (protocol/panelMemory.ts). */
  private memory: PanelMemory = {};
  /** The chat whose disclosures are in use. */
  private disclosuresSession: string | undefined;
  private lastPing: number | undefined;
  /**
   * The newest chat: patches land here at once and the view takes it at most once a frame. A fast stream
   * sends many chunks a frame, and each render of a long message costs the whole message again.
   */
  private latest: ChatSnapshot | undefined;
  private pendingFrame: { raf: number; timer: ReturnType<typeof setTimeout> } | undefined;

  constructor() {
    super();
    this.view = 'chat';
    this.announced = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener(HOST_REQUEST, (e) => void this.forward((e as CustomEvent<HostRequestDetail>).detail));
    this.addEventListener(SHOW_VIEW, (e) => this.show((e as CustomEvent<PanelView>).detail));
    this.addEventListener('cd-draft', (e) => this.keepDraft((e as CustomEvent<string>).detail));
    this.addEventListener(SETUP_DRAFT, (e) =>
      this.remember({ setup: (e as CustomEvent<SetupDraft | undefined>).detail }),
    );
    this.addEventListener('cd-meter-open', (e) => this.save({ meterOpen: (e as CustomEvent<boolean>).detail }));
    this.addEventListener('cd-scrolled', (e) =>
      this.save({ scroll: { ...(e as CustomEvent<ScrollState>).detail, session: this.chat?.sessionId ?? '' } }),
    );
    this.host = new HostConnection(
      {
        onInit: (payload) => {
          this.draft = payload.draft ?? '';
          if (this.legacy !== '' && this.draft === '') this.keepDraft(this.legacy);
          this.legacy = '';
          this.memory = payload.memory ?? {};
          this.error = this.memory.error;
          this.init = payload;
          this.settings = payload.settings;
          this.showChat(payload.chat);
        },
        onNotification: <K extends keyof WebviewNotifications>(method: K, params: WebviewNotifications[K]) =>
          this.notified(method, params),
      },
      {
        ping: ({ sentAt }) => {
          this.lastPing = Date.now();
          return { sentAt, receivedAt: this.lastPing };
        },
        snapshot: () => ({
          settings: this.settings,
          items: this.latest?.items.length ?? 0,
          status: this.latest?.status,
          maskedShown: this.conversation?.maskedShown() ?? 0,
          view: this.view,
          ...(this.lastPing !== undefined ? { lastPing: this.lastPing } : {}),
        }),
      },
    );
    const raw = this.host.getState();
    this.saved = readSavedState(raw);
    this.legacy = legacyDraft(raw);
    // Written back at once: a draft an earlier version stored does not stay on disk.
    if (this.legacy !== '') this.host.setState(this.saved);
    this.view = this.saved.view;
  }

  private notified<K extends keyof WebviewNotifications>(method: K, params: WebviewNotifications[K]): void {
    if (method === 'settingsChanged') this.settings = params as WebviewNotifications['settingsChanged'];
    else if (method === 'chatSnapshot') this.showChat(params as ChatSnapshot);
    else if (method === 'chatPatch' && this.latest) {
      const patches = params as WebviewNotifications['chatPatch'];
      this.latest = applyChatPatches(this.latest, patches);
      this.takeBackNotSent(patches);
      this.showLatestSoon();
    } else if (method === 'showView') this.show((params as WebviewNotifications['showView']).view);
    else if (method === 'focusComposer') {
      this.show('chat');
      void this.updateComplete.then(() => this.renderRoot.querySelector<CdComposer>('cd-composer')?.focus());
    }
  }

  private get conversation(): CdConversation | null {
    return this.renderRoot.querySelector('cd-conversation');
  }

  /** Has the host keep `part` of the panel's memory while the view is hidden (not through `forward`). */
  private remember(part: Partial<PanelMemory>): void {
    const next: PanelMemory = { ...this.memory, ...part };
    for (const k of Object.keys(next) as (keyof PanelMemory)[]) if (next[k] === undefined) delete next[k];
    this.memory = next;
    this.host?.request('keepMemory', next).catch(() => undefined);
  }

  /** The error line (undefined: none); the host keeps it until dismissed. */
  private showError(message: string | undefined): void {
    if (message === this.error) return;
    this.error = message;
    this.remember({ error: message });
  }

  private show(view: PanelView): void {
    // A view from a newer host would show the conversation without its dock (no message box).
    if (!isPanelView(view)) return;
    this.view = view;
    this.save({ view });
  }

  override updated(changed: PropertyValues<this>): void {
    // An answered prompt takes the focus with it: give it back to the composer, not to the page.
    const before = changed.get('chat') as ChatSnapshot | undefined;
    if (before?.approval === undefined || this.chat?.approval !== undefined || this.view !== 'chat') return;
    // Once the prompt itself has gone (it updates after this element).
    const prompt = this.renderRoot.querySelector<LitElement>('cd-approval');
    void (prompt?.updateComplete ?? Promise.resolve(true)).then(() => {
      const active = deepActiveElement(document);
      if (active === null || active === document.body || active === this)
        this.renderRoot.querySelector<CdComposer>('cd-composer')?.focus();
    });
  }

  /** Shows the newest chat at the next frame (or soon, if a hidden view draws no frames). */
  private showLatestSoon(): void {
    if (this.pendingFrame) return;
    const show = (): void => {
      if (!this.cancelFrame()) return;
      const said = this.latest && announcement(this.chat, this.latest);
      if (said) this.announced = said;
      this.chat = this.latest;
    };
    this.pendingFrame = { raf: requestAnimationFrame(show), timer: setTimeout(show, 250) };
  }

  /** Drops the frame asked for, if any; true when there was one. */
  private cancelFrame(): boolean {
    const f = this.pendingFrame;
    if (!f) return false;
    cancelAnimationFrame(f.raf);
    clearTimeout(f.timer);
    this.pendingFrame = undefined;
    return true;
  }

  private showChat(chat: ChatSnapshot): void {
    const first = this.chat === undefined;
    this.cancelFrame();
    const said = announcement(this.chat, chat);
    if (said) this.announced = said;
    this.latest = chat;
    this.chat = chat;
    if (chat.sessionId !== this.disclosuresSession) {
      const session = chat.sessionId;
      this.disclosuresSession = session;
      useDisclosures(
        new Disclosures(disclosuresFor(this.saved, session), (chosen) =>
          this.save({ disclosures: { session, chosen } }),
        ),
      );
    }
    const scroll = first ? scrollFor(this.saved, chat.sessionId) : undefined;
    if (scroll) void this.updateComplete.then(() => this.conversation?.restore(scroll));
  }

  /**
   * A message the agent set aside (over the model's window alone) goes back into the message box to be
   * shortened and sent again, when the box is empty: never over what the person typed since.
   */
  private takeBackNotSent(patches: WebviewNotifications['chatPatch']): void {
    if (!Array.isArray(patches) || this.draft.trim() !== '') return;
    const id = patches.findLast((p): p is Extract<ChatPatch, { op: 'notSent' }> => p?.op === 'notSent')?.id;
    const item = this.latest?.items.find((i) => i.id === id);
    if (item?.kind !== 'user') return;
    this.keepDraft(item.text);
    this.requestUpdate();
  }

  private keepDraft(text: string): void {
    this.draft = text;
    // Not through `forward`: typing must neither clear nor show the panel's error line.
    this.host?.request('saveDraft', { text }).catch(() => undefined);
  }

  private save(part: Partial<SavedState>): void {
    this.saved = { ...this.saved, ...part };
    this.host?.setState(this.saved);
  }

  private async forward(d: HostRequestDetail): Promise<void> {
    if (!this.host) return;
    try {
      const result = await this.host.request(d.method, d.params as never);
      this.showError(undefined);
      d.reply?.resolve(result as never);
    } catch (e) {
      const error = e instanceof Error ? e : new Error(String(e));
      if (d.reply) d.reply.reject(error);
      else this.showError(error.message);
    }
  }

  override render(): unknown {
    if (!this.init || !this.settings || !this.chat) {
      return html`<p class="connecting" role="status">Connecting to the extension host…</p>`;
    }
    const c = this.chat;
    const running = c.status === 'running';
    return html`
      <div class="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="announcer">
        ${this.announced}
      </div>
      <main>
        ${
          this.view === 'setup'
            ? html`<cd-setup .kept=${this.memory.setup}></cd-setup>`
            : this.view === 'history'
              ? html`<cd-history .sessions=${c.pastSessions} .current=${c.sessionId} ?running=${running}></cd-history>`
              : html`<cd-conversation .items=${c.items}>
                  ${c.items.length === 0 ? html`<cd-welcome slot="empty" .setup=${c.setup} .model=${c.model}></cd-welcome>` : nothing}
                </cd-conversation>`
        }
      </main>
      ${
        this.view === 'chat' || c.approval || this.error
          ? html`<footer class="dock">
              <div class="dock-scroll">
                <cd-approval .approval=${c.approval}></cd-approval>
                ${
                  this.error
                    ? html`<div class="error" role="alert" data-testid="panel-error">
                        <span class="codicon codicon-error" aria-hidden="true"></span>
                        <span class="text">${this.error}</span>
                        <button
                          type="button"
                          class="dismiss"
                          aria-label="Dismiss"
                          title="Dismiss"
                          @click=${() => this.showError(undefined)}
                        >
                          <span class="codicon codicon-close" aria-hidden="true"></span>
                        </button>
                      </div>`
                    : nothing
                }
                ${this.view === 'chat' ? this.chatStatus(c) : nothing}
              </div>
              ${this.view === 'chat' ? this.composer(c) : nothing}
            </footer>`
          : nothing
      }
    `;
  }

  /** What the dock shows above the composer while chatting: the status line and the meter. */
  private chatStatus(c: ChatSnapshot): unknown {
    const running = c.status === 'running';
    const quiet = c.activity ?? (running || c.status !== 'idle' ? statusText(c.status) : undefined);
    return html`
      ${
        quiet
          ? html`<div class="status-line" role="status" aria-live="polite">
              ${running ? html`<span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true"></span>` : nothing}
              ${c.status === 'error' || c.status === 'budget' ? html`<span class="codicon codicon-error" aria-hidden="true"></span>` : nothing}
              <span class="status ${c.status}" data-testid="status">${quiet}</span>
            </div>`
          : nothing
      }
      ${
        c.meter.calls > 0 || c.meter.budget || c.meter.maskedObservations > 0
          ? html`<cd-meter
              .meter=${c.meter}
              .series=${c.series}
              .strategy=${this.settings?.strategy ?? c.strategy}
              ?open=${this.saved.meterOpen}
            ></cd-meter>`
          : nothing
      }
    `;
  }

  private composer(c: ChatSnapshot): unknown {
    return html`<cd-composer
      .draft=${this.draft}
      ?running=${c.status === 'running'}
      ?ready=${c.setup.ready}
      .strategy=${c.strategy}
      .strategies=${c.strategies}
      .model=${c.model}
      .models=${c.models}
    ></cd-composer>`;
  }

  static override styles = [
    codicons,
    css`
      :host {
        display: flex;
        flex-direction: column;
        height: 100vh;
        box-sizing: border-box;
        color: var(--vscode-foreground);
        font-family: var(--vscode-font-family);
        font-size: var(--vscode-font-size);
      }
      main {
        flex: 1;
        min-height: 0;
        display: flex;
        flex-direction: column;
      }
      main > * {
        flex: 1;
        min-height: 0;
      }
      /* The dock is painted above anything in main, and main's content cannot reach into it. */
      .dock {
        flex: none;
        position: relative;
        z-index: 1;
        padding: 4px 10px 8px;
        border-top: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent));
        background: var(--vscode-sideBar-background, var(--vscode-editor-background));
        max-height: 70vh;
        display: flex;
        flex-direction: column;
      }
      /* The prompt, errors and the meter scroll; the composer below them always stays in view. */
      .dock-scroll {
        flex: 0 1 auto;
        min-height: 0;
        overflow-y: auto;
      }
      cd-composer {
        flex: none;
      }
      .status-line {
        display: flex;
        align-items: center;
        gap: 5px;
        min-height: 1.2em;
        font-size: 0.92em;
        color: var(--vscode-descriptionForeground);
      }
      /* Wraps: a retry's reason ("…: the provider is rate limiting") comes last and was cut at 300 px. */
      .status-line .status {
        min-width: 0;
        overflow-wrap: anywhere;
      }
      /* The words in the foreground colour (the error colour is faint on a light theme), the icon in error. */
      .status.error,
      .status.budget {
        color: var(--vscode-foreground);
      }
      .status-line .codicon-error {
        color: var(--vscode-errorForeground);
      }
      /* Read by screen readers, not shown. */
      .sr-only {
        position: absolute;
        width: 1px;
        height: 1px;
        overflow: hidden;
        clip-path: inset(50%);
        white-space: nowrap;
      }
      .connecting {
        padding: 8px 12px;
        color: var(--vscode-descriptionForeground);
      }
      .error {
        display: flex;
        align-items: flex-start;
        gap: 5px;
        color: var(--vscode-errorForeground);
        margin: 2px 0 4px;
      }
      .error .text {
        flex: 1;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .dismiss {
        flex: none;
        padding: 0 2px;
        border: none;
        background: none;
        color: var(--vscode-foreground);
        cursor: pointer;
      }
      .dismiss:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
      }
    `,
  ];
}

customElements.define('cd-app', CdApp);
