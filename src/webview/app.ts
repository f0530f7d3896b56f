// <cd-app>: the Agent panel's root. Holds the chat snapshot from the host (replaced on `init` and
// `chatSnapshot`, patched by `chatPatch`), forwards the components' requests to the host, and keeps the
// draft and scroll position in the webview state so hiding the view loses nothing.
import { LitElement, css, html, nothing } from 'lit';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import type { ChatSnapshot } from '../protocol/chat';
import { applyChatPatches } from '../protocol/chatPatch';
import type { HostRequests, InitPayload, PanelSettings, WebviewNotifications } from '../protocol/messages';
import { HOST_REQUEST, type HostRequestDetail } from './events';
import { HostConnection } from './host';
import { statusText } from './lib/format';
import './components/toolbar';
import './components/meter';
import './components/plot';
import './components/conversation';
import './components/approval';
import './components/composer';
import type { CdConversation } from './components/conversation';
import { EMPTY_STATE, readSavedState, type SavedState, type ScrollState } from './lib/savedState';

export class CdApp extends LitElement {
  static override properties = {
    init: { state: true },
    settings: { state: true },
    chat: { state: true },
    lastPing: { state: true },
    error: { state: true },
  };

  declare init: InitPayload | undefined;
  declare settings: PanelSettings | undefined;
  declare chat: ChatSnapshot | undefined;
  declare lastPing: number | undefined;
  declare error: string | undefined;
  private host: HostConnection | undefined;
  private saved: SavedState = { ...EMPTY_STATE };

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener(HOST_REQUEST, (e) => void this.forward((e as CustomEvent<HostRequestDetail>).detail));
    this.addEventListener('cd-draft', (e) => this.save({ draft: (e as CustomEvent<string>).detail }));
    this.addEventListener('cd-scrolled', (e) => this.save({ scroll: (e as CustomEvent<ScrollState>).detail }));
    this.host = new HostConnection(
      {
        onInit: (payload) => {
          this.init = payload;
          this.settings = payload.settings;
          this.showChat(payload.chat);
        },
        onNotification: <K extends keyof WebviewNotifications>(method: K, params: WebviewNotifications[K]) => {
          if (method === 'settingsChanged') this.settings = params as WebviewNotifications['settingsChanged'];
          else if (method === 'chatSnapshot') this.showChat(params as ChatSnapshot);
          else if (method === 'chatPatch' && this.chat)
            this.chat = applyChatPatches(this.chat, params as WebviewNotifications['chatPatch']);
        },
      },
      {
        ping: ({ sentAt }) => {
          this.lastPing = Date.now();
          return { sentAt, receivedAt: this.lastPing };
        },
        snapshot: () => ({
          settings: this.settings,
          items: this.chat?.items.length ?? 0,
          status: this.chat?.status,
          maskedShown: this.conversation?.maskedShown() ?? 0,
        }),
      },
    );
    this.saved = readSavedState(this.host.getState());
  }

  private get conversation(): CdConversation | null {
    return this.renderRoot.querySelector('cd-conversation');
  }

  private showChat(chat: ChatSnapshot): void {
    const first = this.chat === undefined;
    this.chat = chat;
    if (first && this.saved.scroll) {
      const scroll = this.saved.scroll;
      void this.updateComplete.then(() => this.conversation?.restore(scroll));
    }
  }

  private save(part: Partial<SavedState>): void {
    this.saved = { ...this.saved, ...part };
    this.host?.setState(this.saved);
  }

  private async forward(d: HostRequestDetail): Promise<void> {
    if (!this.host) return;
    try {
      const result = await this.host.request(d.method, d.params as never);
      const r = result as Partial<HostRequests['send']['result']>;
      this.error =
        d.method === 'send' && r.accepted === false ? (r.reason ?? 'The agent did not accept the message.') : undefined;
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  override render(): unknown {
    if (!this.init || !this.settings || !this.chat) {
      return html`<p class="connecting" role="status">Connecting to the extension host…</p>`;
    }
    const c = this.chat;
    return html`
      <header>
        <cd-toolbar .chat=${c}></cd-toolbar>
        <details
          class="context"
          ?open=${this.saved.contextOpen}
          @toggle=${(e: Event) => this.save({ contextOpen: (e.target as HTMLDetailsElement).open })}
        >
          <summary>Context · <span data-testid="strategy">${this.settings.strategy}</span></summary>
          <cd-meter .meter=${c.meter}></cd-meter>
          <cd-plot .series=${c.series}></cd-plot>
        </details>
      </header>
      <cd-conversation .items=${c.items}></cd-conversation>
      <footer>
        <cd-approval .approval=${c.approval}></cd-approval>
        ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
        <div class="status-line">
          <span class="status ${c.status}" role="status" data-testid="status">${statusText(c.status)}</span>
          ${c.model ? html`<span class="model">${c.model}</span>` : nothing}
        </div>
        <cd-composer
          .draft=${this.saved.draft}
          ?running=${c.status === 'running'}
          .setupHint=${c.setupHint}
        ></cd-composer>
        <p class="connection" data-testid="connection">
          Connected to the extension host (protocol ${this.init.protocolVersion}) ·
          <vscode-badge>v${this.init.extensionVersion}</vscode-badge>
        </p>
        ${
          this.lastPing
            ? html`<p class="connection" data-testid="ping">
                Host ping received at ${new Date(this.lastPing).toLocaleTimeString()}.
              </p>`
            : nothing
        }
      </footer>
    `;
  }

  static override styles = css`
    :host {
      display: flex;
      flex-direction: column;
      height: 100vh;
      box-sizing: border-box;
      color: var(--vscode-foreground);
      font-family: var(--vscode-font-family);
      font-size: var(--vscode-font-size);
    }
    header,
    footer {
      flex: none;
      padding: 6px 10px;
    }
    header {
      border-bottom: 1px solid var(--vscode-panel-border, transparent);
      /* A short sidebar keeps room for the chat and the composer; the context section scrolls. */
      max-height: 45vh;
      overflow-y: auto;
    }
    footer {
      border-top: 1px solid var(--vscode-panel-border, transparent);
      max-height: 60vh;
      overflow-y: auto;
    }
    @media (max-height: 520px) {
      header {
        max-height: 28vh;
      }
    }
    cd-conversation {
      flex: 1;
      min-height: 48px;
    }
    .context summary {
      cursor: pointer;
      margin: 6px 0 2px;
      color: var(--vscode-descriptionForeground);
    }
    .context summary:focus-visible {
      outline: 1px solid var(--vscode-focusBorder);
    }
    .status-line {
      display: flex;
      justify-content: space-between;
      gap: 8px;
      margin-bottom: 4px;
      color: var(--vscode-descriptionForeground);
    }
    .status.running {
      color: var(--vscode-progressBar-background);
    }
    .status.error,
    .status.budget {
      color: var(--vscode-errorForeground);
    }
    .connection {
      margin: 4px 0 0;
      font-size: 0.85em;
      color: var(--vscode-descriptionForeground);
    }
    .connecting {
      padding: 8px 12px;
      color: var(--vscode-descriptionForeground);
    }
    .error {
      color: var(--vscode-errorForeground);
      margin: 4px 0;
    }
  `;
}

customElements.define('cd-app', CdApp);
