// <cd-toolbar>: strategy and model pickers, New Chat, Stop, and the past sessions menu. Native selects
// (keyboard and screen-reader friendly) styled with the dropdown theme colours.
import { LitElement, css, html, nothing } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { ChatSnapshot } from '../../protocol/chat';
import { requestHost } from '../events';
import { codicons } from './codicons';

export class CdToolbar extends LitElement {
  static override properties = { chat: { attribute: false } };
  declare chat: ChatSnapshot | undefined;

  private pick(e: Event, method: 'setStrategy' | 'setModel' | 'openSession'): void {
    const select = e.target as HTMLSelectElement;
    const value = select.value;
    if (!value) return;
    if (method === 'setStrategy') requestHost(this, 'setStrategy', { strategy: value });
    else if (method === 'setModel') requestHost(this, 'setModel', { model: value });
    else {
      requestHost(this, 'openSession', { sessionId: value });
      select.value = '';
    }
  }

  override render(): unknown {
    const c = this.chat;
    if (!c) return nothing;
    const running = c.status === 'running';
    return html`<div class="bar" role="toolbar" aria-label="Agent">
      <label>
        <span class="codicon-label codicon codicon-layers" title="Context strategy" aria-hidden="true"></span>
        <select
          aria-label="Context strategy"
          data-testid="strategy-picker"
          @change=${(e: Event) => this.pick(e, 'setStrategy')}
        >
          ${c.strategies.map((s) => html`<option value=${s} ?selected=${s === c.strategy}>${s}</option>`)}
        </select>
      </label>
      ${
        c.models.length > 0
          ? html`<label>
              <span class="codicon-label codicon codicon-hubot" title="Model" aria-hidden="true"></span>
              <select aria-label="Model" data-testid="model-picker" @change=${(e: Event) => this.pick(e, 'setModel')}>
                ${c.model && !c.models.some((m) => isCurrent(c.model, m)) ? html`<option value="" selected>${c.model}</option>` : nothing}
                ${c.models.map((m) => html`<option value=${m} ?selected=${isCurrent(c.model, m)}>${m}</option>`)}
              </select>
            </label>`
          : nothing
      }
      <span class="spacer"></span>
      ${
        c.pastSessions.length > 0
          ? html`<select
              aria-label="Open a past session"
              data-testid="past-sessions"
              @change=${(e: Event) => this.pick(e, 'openSession')}
            >
              <option value="" selected>History…</option>
              ${c.pastSessions.map(
                (s) =>
                  html`<option value=${s.id} ?disabled=${s.id === c.sessionId}>
                    ${s.title} · ${s.turns} turns · ${new Date(s.createdAt).toLocaleDateString()}
                  </option>`,
              )}
            </select>`
          : nothing
      }
      <vscode-button
        secondary
        icon="add"
        aria-label="New chat"
        title="New chat"
        data-testid="new-chat"
        @click=${() => requestHost(this, 'newChat', {})}
        >New</vscode-button
      >
      <vscode-button
        secondary
        icon="debug-stop"
        aria-label="Stop the agent"
        title="Stop the agent"
        data-testid="stop"
        ?disabled=${!running}
        @click=${() => requestHost(this, 'stop', {})}
        >Stop</vscode-button
      >
    </div>`;
  }

  static override styles = [
    codicons,
    css`
      :host {
        display: block;
      }
      .bar {
        display: flex;
        align-items: center;
        flex-wrap: wrap;
        gap: 6px;
      }
      label {
        display: inline-flex;
        align-items: center;
        gap: 4px;
      }
      .codicon-label {
        color: var(--vscode-descriptionForeground);
      }
      .spacer {
        flex: 1;
      }
      select {
        font: inherit;
        color: var(--vscode-dropdown-foreground);
        background: var(--vscode-dropdown-background);
        border: 1px solid var(--vscode-dropdown-border, transparent);
        border-radius: 2px;
        padding: 2px 4px;
        max-width: 150px;
        min-width: 0;
      }
      select:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: -1px;
      }
    `,
  ];
}

customElements.define('cd-toolbar', CdToolbar);

/** The snapshot names the model as `provider/model`; the picker lists model names. */
function isCurrent(label: string | undefined, model: string): boolean {
  return label === model || (label?.endsWith(`/${model}`) ?? false);
}
