// <cd-approval>: asks the user to approve a command, an edit or more budget. Focus moves to Approve
// when a new request appears so it is answerable from the keyboard at once; Escape denies.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { ApprovalRequest } from '../../protocol/chat';
import { requestHost } from '../events';
import { codeBlock } from './codeBlock';

const KIND_TEXT = {
  command: 'Run a command?',
  edit: 'Apply an edit?',
  budget: 'Go over the budget?',
  mcp: 'MCP tool call',
} as const;

export class CdApproval extends LitElement {
  static override properties = { approval: { attribute: false } };
  declare approval: ApprovalRequest | undefined;

  private answer(approved: boolean, always = false): void {
    if (this.approval) requestHost(this, 'answerApproval', { id: this.approval.id, approved, always });
  }

  override updated(changed: PropertyValues<this>): void {
    const before = changed.get('approval') as ApprovalRequest | undefined;
    if (this.approval && this.approval.id !== before?.id) {
      // vscode-button reflects its tabindex on its own first update: focus after it.
      const button = this.renderRoot.querySelector<LitElement>('[data-testid="approve"]');
      void button?.updateComplete.then(() => button.focus());
    }
  }

  override render(): unknown {
    const a = this.approval;
    if (!a) return nothing;
    return html`<div
      class="box"
      role="alertdialog"
      aria-labelledby="approval-title"
      aria-describedby="approval-detail"
      data-testid="approval"
      @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.answer(false)}
    >
      <div class="kind">${KIND_TEXT[a.kind] ?? 'Approve?'}</div>
      <div class="title" id="approval-title">${a.title}</div>
      ${
        a.mcp
          ? html`<dl class="mcp" data-testid="approval-mcp">
                <dt>Server</dt>
                <dd>${a.mcp.server}</dd>
                <dt>Tool</dt>
                <dd>
                  ${a.mcp.tool}${a.mcp.readOnlyHint ? html` <span class="hint">(marked read-only by its server)</span>` : nothing}
                </dd>
              </dl>
              <pre id="approval-detail" aria-label="Arguments">${a.mcp.arguments}</pre>`
          : html`<pre id="approval-detail">${a.detail}</pre>`
      }
      <div class="buttons">
        <vscode-button data-testid="approve" @click=${() => this.answer(true)}>Approve</vscode-button>
        ${
          a.alwaysLabel
            ? html`<vscode-button secondary data-testid="always" @click=${() => this.answer(true, true)}
                >${a.alwaysLabel}</vscode-button
              >`
            : nothing
        }
        <vscode-button secondary data-testid="deny" @click=${() => this.answer(false)}>Deny</vscode-button>
      </div>
    </div>`;
  }

  static override styles = [
    codeBlock,
    css`
      :host {
        display: block;
      }
      .box {
        padding: 8px;
        margin: 6px 0;
        border: 1px solid var(--vscode-focusBorder);
        background: var(--vscode-editorWidget-background);
      }
      .kind {
        color: var(--vscode-descriptionForeground);
        font-size: 0.9em;
      }
      .title {
        font-weight: 600;
        margin: 2px 0 4px;
      }
      pre {
        margin: 0 0 6px;
        max-height: 160px;
      }
      .buttons {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
      }
      .mcp {
        display: grid;
        grid-template-columns: auto 1fr;
        gap: 0 8px;
        margin: 0 0 4px;
      }
      .mcp dt {
        color: var(--vscode-descriptionForeground);
      }
      .mcp dd {
        margin: 0;
        font-family: var(--vscode-editor-font-family);
        overflow-wrap: anywhere;
      }
      .hint {
        font-family: var(--vscode-font-family);
        color: var(--vscode-descriptionForeground);
      }
    `,
  ];
}

customElements.define('cd-approval', CdApproval);
