// <cd-app>: the Agent panel's root. For now it shows the connection, the context settings in force and
// what the panel will hold; the chat arrives with the agent.
import { LitElement, css, html, nothing } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import type { InitPayload, PanelSettings, WebviewNotifications } from '../protocol/messages';
import { HostConnection } from './host';

export class CdApp extends LitElement {
  static override properties = {
    init: { state: true },
    settings: { state: true },
    lastPing: { state: true },
    error: { state: true },
  };

  declare init: InitPayload | undefined;
  declare settings: PanelSettings | undefined;
  declare lastPing: number | undefined;
  declare error: string | undefined;
  private host: HostConnection | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.host = new HostConnection(
      {
        onInit: (payload) => {
          this.init = payload;
          this.settings = payload.settings;
        },
        onNotification: <K extends keyof WebviewNotifications>(method: K, params: WebviewNotifications[K]) => {
          if (method === 'settingsChanged') this.settings = params as WebviewNotifications['settingsChanged'];
        },
      },
      {
        ping: ({ sentAt }) => {
          this.lastPing = Date.now();
          return { sentAt, receivedAt: this.lastPing };
        },
        snapshot: () => ({ settings: this.settings, items: 0, status: undefined, maskedShown: 0 }),
      },
    );
  }

  private async showLog(): Promise<void> {
    try {
      await this.host?.request('showLog', {});
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    }
  }

  static override styles = css`
    :host {
      display: block;
      padding: 8px 12px;
      color: var(--vscode-foreground);
      font-family: var(--vscode-font-family);
      font-size: var(--vscode-font-size);
    }
    h2 {
      font-size: 1.1em;
      margin: 0.4em 0;
      display: flex;
      align-items: center;
      gap: 6px;
    }
    .status {
      display: flex;
      align-items: center;
      gap: 6px;
      color: var(--vscode-descriptionForeground);
    }
    dl {
      display: grid;
      grid-template-columns: max-content 1fr;
      gap: 2px 10px;
      margin: 10px 0;
    }
    dt {
      color: var(--vscode-descriptionForeground);
    }
    dd {
      margin: 0;
      font-family: var(--vscode-editor-font-family);
    }
    p {
      line-height: 1.4;
    }
    .error {
      color: var(--vscode-errorForeground);
    }
  `;

  override render(): unknown {
    if (!this.init || !this.settings) {
      return html`<p class="status" role="status">Connecting to the extension host…</p>`;
    }
    const s = this.settings;
    return html`
      <h2>Context Desk <vscode-badge>v${this.init.extensionVersion}</vscode-badge></h2>
      <p class="status" role="status" data-testid="connection">
        Connected to the extension host (protocol ${this.init.protocolVersion}).
      </p>
      <dl aria-label="Context settings">
        <dt>Strategy</dt>
        <dd data-testid="strategy">${s.strategy}</dd>
        <dt>Masking window</dt>
        <dd>${s.maskingWindow} turns</dd>
        <dt>Tokenizer</dt>
        <dd>${s.tokenizer}</dd>
        <dt>Cached input price</dt>
        <dd>${s.cachedInputPrice}× uncached</dd>
      </dl>
      <p>
        The agent chat comes to this panel next. Until then, the context engine runs from the command line:
        <code>context-desk --help</code>.
      </p>
      ${
        this.lastPing
          ? html`<p data-testid="ping">Host ping received at ${new Date(this.lastPing).toLocaleTimeString()}.</p>`
          : nothing
      }
      ${this.error ? html`<p class="error" role="alert">${this.error}</p>` : nothing}
      <vscode-button secondary @click=${() => void this.showLog()}>Show Log</vscode-button>
    `;
  }
}

customElements.define('cd-app', CdApp);
