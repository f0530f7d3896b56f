// <cd-composer>: the message box. Enter sends, Shift+Enter adds a line; disabled while the agent runs.
// The draft is reported on every edit so the panel can keep it while the view is hidden.
import { LitElement, css, html, nothing } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import { requestHost } from '../events';
import { codicons } from './codicons';

export class CdComposer extends LitElement {
  static override properties = {
    draft: { attribute: false },
    running: { type: Boolean },
    setupHint: { attribute: false },
  };

  declare draft: string;
  declare running: boolean;
  declare setupHint: string | undefined;

  constructor() {
    super();
    this.draft = '';
    this.running = false;
  }

  private get box(): HTMLTextAreaElement | null {
    return this.renderRoot.querySelector('textarea');
  }

  private setDraft(text: string): void {
    this.draft = text;
    this.dispatchEvent(new CustomEvent('cd-draft', { detail: text, bubbles: true, composed: true }));
  }

  private send(): void {
    const text = this.draft.trim();
    if (!text || this.running) return;
    requestHost(this, 'send', { text });
    this.setDraft('');
    const box = this.box;
    if (box) box.value = '';
  }

  private onKey(e: KeyboardEvent): void {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.send();
    }
  }

  override render(): unknown {
    const blocked = this.running;
    return html`
      ${
        this.setupHint
          ? html`<div class="setup" role="alert" data-testid="setup-hint">
              <span class="codicon codicon-gear" aria-hidden="true"></span>
              <span class="text">${this.setupHint}</span>
              <vscode-button @click=${() => requestHost(this, 'noticeAction', { action: 'configure' })}
                >Configure</vscode-button
              >
            </div>`
          : nothing
      }
      <div class="row">
        <textarea
          data-testid="composer"
          aria-label="Message to the agent (Enter sends, Shift+Enter adds a line)"
          placeholder=${blocked ? 'The agent is working… (Stop to interrupt)' : 'Ask the agent… (Enter to send)'}
          rows="2"
          .value=${this.draft}
          ?disabled=${blocked}
          @input=${(e: Event) => this.setDraft((e.target as HTMLTextAreaElement).value)}
          @keydown=${this.onKey}
        ></textarea>
        <vscode-button
          data-testid="send"
          icon="send"
          aria-label="Send"
          title="Send (Enter)"
          ?disabled=${blocked || this.draft.trim() === ''}
          @click=${() => this.send()}
          >Send</vscode-button
        >
      </div>
    `;
  }

  static override styles = [
    codicons,
    css`
      :host {
        display: block;
      }
      .row {
        display: flex;
        gap: 6px;
        align-items: flex-end;
      }
      textarea {
        flex: 1;
        resize: vertical;
        min-height: 2.6em;
        max-height: 40vh;
        box-sizing: border-box;
        font: inherit;
        padding: 4px 6px;
        color: var(--vscode-input-foreground);
        background: var(--vscode-input-background);
        border: 1px solid var(--vscode-input-border, transparent);
        border-radius: 2px;
      }
      textarea::placeholder {
        color: var(--vscode-input-placeholderForeground);
      }
      textarea:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: -1px;
      }
      textarea:disabled {
        opacity: 0.6;
      }
      .setup {
        display: flex;
        align-items: center;
        gap: 6px;
        flex-wrap: wrap;
        margin-bottom: 6px;
        padding: 6px 8px;
        border: 1px solid var(--vscode-inputValidation-warningBorder, var(--vscode-focusBorder));
        background: var(--vscode-inputValidation-warningBackground, transparent);
      }
      .setup .text {
        flex: 1;
        min-width: 12em;
      }
    `,
  ];
}

customElements.define('cd-composer', CdComposer);
