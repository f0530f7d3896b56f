// <cd-app>: the Agent panel's root. One scrolling conversation takes all the height left; below it a
// fixed dock (components/dock.ts) holds the approval prompt, the run's one-line status, the context meter
// and the composer. The setup form and History replace the conversation when asked for. Holds the chat
// snapshot from the host (replaced on `init`/`chatSnapshot`, patched by `chatPatch`); kept.ts holds what
// outlives a hidden view (scroll position, meter toggle, open disclosures, view, draft, error line).
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import type { ChatPatch, ChatSnapshot } from '../protocol/chat';
import { applyChatPatches } from '../protocol/chatPatch';
import type { InitPayload, PanelSettings, PanelView, WebviewNotifications } from '../protocol/messages';
import type { SetupDraft } from '../protocol/panelMemory';
import { HOST_REQUEST, SHOW_VIEW, type HostRequestDetail } from './events';
import { HostConnection } from './host';
import { Kept } from './kept';
import { announcement } from './lib/announce';
import { deepActiveElement } from './lib/focus';
import { Disclosures, useDisclosures } from './lib/disclosures';
import { NextFrame } from './lib/nextFrame';
import { disclosuresFor, isPanelView, scrollFor, type ScrollState } from './lib/savedState';
import './components/conversation';
import { dock, dockStyles } from './components/dock';
import './components/welcome';
import { SETUP_DRAFT } from './components/setup-form';
import './components/history-list';
import type { CdConversation } from './components/conversation';
import type { CdComposer } from './components/composer';
import { srOnly } from './components/sr-only';
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
  private readonly kept = new Kept();
  /** The chat whose disclosures are in use. */
  private disclosuresSession: string | undefined;
  private lastPing: number | undefined;
  /**
   * The newest chat: patches land here at once and the view takes it at most once a frame. A fast stream
   * sends many chunks a frame, and each render of a long message costs the whole message again.
   */
  private latest: ChatSnapshot | undefined;
  /** Shows the newest chat at the next frame. */
  private readonly frame = new NextFrame(() => {
    const said = this.latest && announcement(this.chat, this.latest);
    if (said) this.announced = said;
    this.chat = this.latest;
  });

  constructor() {
    super();
    this.view = 'chat';
    this.announced = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener(HOST_REQUEST, (e) => void this.forward((e as CustomEvent<HostRequestDetail>).detail));
    this.addEventListener(SHOW_VIEW, (e) => this.show((e as CustomEvent<PanelView>).detail));
    this.addEventListener('cd-draft', (e) => this.kept.keepDraft((e as CustomEvent<string>).detail));
    this.addEventListener(SETUP_DRAFT, (e) =>
      this.kept.remember({ setup: (e as CustomEvent<SetupDraft | undefined>).detail }),
    );
    this.addEventListener('cd-meter-open', (e) => this.kept.save({ meterOpen: (e as CustomEvent<boolean>).detail }));
    this.addEventListener('cd-scrolled', (e) =>
      this.kept.save({ scroll: { ...(e as CustomEvent<ScrollState>).detail, session: this.chat?.sessionId ?? '' } }),
    );
    this.host = new HostConnection(
      {
        onInit: (payload) => {
          this.kept.received(payload);
          this.error = this.kept.memory.error;
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
    this.kept.connect(this.host);
    this.view = this.kept.saved.view;
  }

  private notified<K extends keyof WebviewNotifications>(method: K, params: WebviewNotifications[K]): void {
    if (method === 'settingsChanged') this.settings = params as WebviewNotifications['settingsChanged'];
    else if (method === 'chatSnapshot') this.showChat(params as ChatSnapshot);
    else if (method === 'chatPatch' && this.latest) {
      const patches = params as WebviewNotifications['chatPatch'];
      this.latest = applyChatPatches(this.latest, patches);
      this.takeBackNotSent(patches);
      this.frame.ask();
    } else if (method === 'showView') this.show((params as WebviewNotifications['showView']).view);
    else if (method === 'focusComposer') {
      this.show('chat');
      void this.updateComplete.then(() => this.renderRoot.querySelector<CdComposer>('cd-composer')?.focus());
    }
  }

  private get conversation(): CdConversation | null {
    return this.renderRoot.querySelector('cd-conversation');
  }

  /** The error line (undefined: none); the host keeps it until dismissed. */
  private showError(message: string | undefined): void {
    if (message === this.error) return;
    this.error = message;
    this.kept.remember({ error: message });
  }

  private show(view: PanelView): void {
    // A view from a newer host would show the conversation without its dock (no message box).
    if (!isPanelView(view)) return;
    this.view = view;
    this.kept.save({ view });
  }

  override updated(changed: PropertyValues<this>): void {
    // "Back to the chat", a session opened from History, Save: the control used went with the view.
    if (changed.get('view') !== undefined && this.view === 'chat') this.refocus(this);
    // An answered prompt takes the focus with it: give it back to the composer, not to the page.
    const before = changed.get('chat') as ChatSnapshot | undefined;
    if (before?.approval === undefined || this.chat?.approval !== undefined || this.view !== 'chat') return;
    // Once the prompt itself has gone (it updates after this element).
    this.refocus(this.renderRoot.querySelector<LitElement>('cd-approval') ?? this);
  }

  /**
   * Gives the composer the focus once `gone` has updated, if the focus went with what it removed (it is
   * then on the page, where Tab starts over from the top): never from where the user has put it.
   */
  private refocus(gone: LitElement): void {
    void gone.updateComplete.then(() => {
      const active = deepActiveElement(document);
      if (active === null || active === document.body || active === this)
        this.renderRoot.querySelector<CdComposer>('cd-composer')?.focus();
    });
  }

  private showChat(chat: ChatSnapshot): void {
    const first = this.chat === undefined;
    this.frame.cancel();
    const said = announcement(this.chat, chat);
    if (said) this.announced = said;
    this.latest = chat;
    this.chat = chat;
    if (chat.sessionId !== this.disclosuresSession) {
      const session = chat.sessionId;
      this.disclosuresSession = session;
      useDisclosures(
        new Disclosures(disclosuresFor(this.kept.saved, session), (chosen) =>
          this.kept.save({ disclosures: { session, chosen } }),
        ),
      );
    }
    const scroll = first ? scrollFor(this.kept.saved, chat.sessionId) : undefined;
    if (scroll) void this.updateComplete.then(() => this.conversation?.restore(scroll));
  }

  /**
   * A message the agent set aside (over the model's window alone) goes back into the message box to be
   * shortened and sent again, when the box is empty: never over what the person typed since.
   */
  private takeBackNotSent(patches: WebviewNotifications['chatPatch']): void {
    if (!Array.isArray(patches) || this.kept.draft.trim() !== '') return;
    const id = patches.findLast((p): p is Extract<ChatPatch, { op: 'notSent' }> => p?.op === 'notSent')?.id;
    const item = this.latest?.items.find((i) => i.id === id);
    if (item?.kind !== 'user') return;
    this.kept.keepDraft(item.text);
    this.requestUpdate();
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
            ? html`<cd-setup .kept=${this.kept.memory.setup}></cd-setup>`
            : this.view === 'history'
              ? html`<cd-history .sessions=${c.pastSessions} .current=${c.sessionId} ?running=${running}></cd-history>`
              : html`<cd-conversation .items=${c.items}>
                  ${c.items.length === 0 ? html`<cd-welcome slot="empty" .setup=${c.setup} .model=${c.model}></cd-welcome>` : nothing}
                </cd-conversation>`
        }
      </main>
      ${dock({
        chat: c,
        view: this.view,
        settings: this.settings,
        error: this.error,
        dismissError: () => {
          this.showError(undefined);
          this.refocus(this);
        },
        draft: this.kept.draft,
        meterOpen: this.kept.saved.meterOpen,
      })}
    `;
  }

  static override styles = [
    srOnly,
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
      .connecting {
        padding: 8px 12px;
        color: var(--vscode-descriptionForeground);
      }
    `,
    dockStyles,
  ];
}

customElements.define('cd-app', CdApp);
