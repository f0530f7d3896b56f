// <cd-approval>: asks the user to approve a command, an edit or more budget. Docked above the composer,
// outside the scrolling conversation, so nothing the model writes can cover it. Focus moves to Approve
// when a new request appears so it is answerable from the keyboard at once; Escape denies.
import { LitElement, css, html, nothing, type PropertyValues } from 'lit';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import type { ApprovalRequest } from '../../protocol/chat';
import { requestHost } from '../events';
import { codeBlock } from './codeBlock';
import { codicons } from './codicons';
import { deepActiveElement, isTyping } from '../lib/focus';
import { revealInvisible } from '../lib/invisible';
import { srOnly } from './sr-only';

/** The kind as a short noun beside the host's title (which already asks the question). */
const KIND = {
  command: { label: 'Command', icon: 'codicon-terminal' },
  edit: { label: 'Edit', icon: 'codicon-edit' },
  budget: { label: 'Budget', icon: 'codicon-warning' },
  mcp: { label: 'MCP tool', icon: 'codicon-plug' },
} as const;

export class CdApproval extends LitElement {
  static override properties = { approval: { attribute: false } };
  declare approval: ApprovalRequest | undefined;

  private answer(approved: boolean, always = false): void {
    if (this.approval) requestHost(this, 'answerApproval', { id: this.approval.id, approved, always });
  }

  override updated(changed: PropertyValues<this>): void {
    const before = changed.get('approval') as ApprovalRequest | undefined;
    // The prompt takes focus (so it is announced and Tab reaches Approve) but never from a user who is
    // typing, and never on Approve itself: a key pressed for something else must not answer it.
    if (this.approval && this.approval.id !== before?.id && !isTyping(deepActiveElement(document)))
      this.renderRoot.querySelector<HTMLElement>('[data-testid="approval"]')?.focus();
  }

  override render(): unknown {
    const a = this.approval;
    if (!a) return nothing;
    // What runs is what is shown: characters that reorder or hide text are drawn as \u{…} (the host does
    // it too; the count includes its escapes, so the warning shows either way).
    let hidden = 0;
    const shown = (text: string): string => {
      const r = revealInvisible(text);
      hidden += r.hidden;
      return r.text;
    };
    const title = shown(a.title);
    const mcp = a.mcp && { server: shown(a.mcp.server), tool: shown(a.mcp.tool), arguments: shown(a.mcp.arguments) };
    const detail = mcp ? '' : shown(a.detail);
    return html`<div
      class="box"
      role="alertdialog"
      tabindex="-1"
      aria-labelledby=${a.place ? 'approval-title approval-place' : 'approval-title'}
      aria-describedby="approval-detail"
      data-testid="approval"
      @keydown=${(e: KeyboardEvent) => e.key === 'Escape' && this.answer(false)}
    >
      <div class="head">
        <span class="kind"
          ><span class="codicon ${KIND[a.kind]?.icon ?? 'codicon-question'}" aria-hidden="true"></span
          >${KIND[a.kind]?.label ?? 'Approval'}</span
        >
        <span class="title" id="approval-title">${title}</span>
      </div>
      ${
        mcp
          ? html`<dl class="mcp" data-testid="approval-mcp">
                <dt>Server</dt>
                <dd>${mcp.server}</dd>
                <dt>Tool</dt>
                <dd>
                  ${mcp.tool}${a.mcp?.readOnlyHint ? html` <span class="hint">(marked read-only by its server)</span>` : nothing}
                </dd>
              </dl>
              <pre id="approval-detail" aria-label="Arguments">${mcp.arguments}</pre>`
          : html`<pre id="approval-detail">${detail}</pre>`
      }
      ${
        hidden > 0
          ? html`<div class="hidden-chars" role="note" data-testid="approval-hidden">
              <span class="codicon codicon-warning" aria-hidden="true"></span>
              ${hidden} invisible or text-reordering character${hidden === 1 ? '' : 's'} shown as \\u{…}: what runs may
              read differently from what it seems to say.
            </div>`
          : nothing
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
        ${
          a.place
            ? html`<span class="place" id="approval-place" data-testid="approval-place"
                ><span class="sr-only">Request </span>${a.place.at} of ${a.place.of}</span
              >`
            : nothing
        }
      </div>
    </div>`;
  }

  static override styles = [
    srOnly,
    codicons,
    codeBlock,
    css`
      :host {
        display: block;
        container-type: inline-size;
      }
      .box {
        padding: 6px 8px;
        margin: 0 0 6px;
        border: 1px solid var(--vscode-focusBorder);
        border-radius: 4px;
        background: var(--vscode-editorWidget-background);
      }
      .head {
        display: flex;
        align-items: baseline;
        gap: 6px;
        flex-wrap: wrap;
        margin-bottom: 4px;
      }
      .kind {
        display: inline-flex;
        align-items: center;
        gap: 3px;
        padding: 0 5px;
        font-size: 0.85em;
        color: var(--vscode-badge-foreground);
        background: var(--vscode-badge-background);
        border-radius: 8px;
        max-width: 100%;
        box-sizing: border-box;
      }
      /* 110 px (220 at 200 % zoom): "Command" with its icon ran into the box's edge; the word says it. */
      @container (max-width: 120px) {
        .kind {
          padding: 0 4px;
        }
        .kind .codicon {
          display: none;
        }
      }
      /* Where more requests wait: "2 of 3", at the end of the answers. */
      .place {
        align-self: center;
        margin-inline-start: auto;
        font-size: 0.85em;
        white-space: nowrap;
        color: var(--vscode-descriptionForeground);
      }
      /* A long MCP tool name ("github › create_pull_request_review_comment_with_suggestion") wraps: cut
         at 300 px, the question and what Always allow covers could not be read in full. */
      .title {
        font-weight: 600;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      pre {
        margin: 0 0 6px;
        max-height: 20vh;
      }
      .buttons {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
      }
      /* A short panel: a long question scrolls in the dock, Approve and Deny stay at its foot in view. */
      @media (max-height: 260px) {
        .buttons {
          position: sticky;
          bottom: 0;
          padding-top: 4px;
          background: var(--vscode-editorWidget-background);
        }
      }
      /* A button's label (Always allow names the tool) wraps instead of being cut at the panel's edge. */
      .buttons vscode-button {
        max-width: 100%;
      }
      .buttons vscode-button::part(base) {
        white-space: normal;
        overflow-wrap: anywhere;
      }
      /* 220 px at 200 % zoom: narrower padding keeps "Approve" on one line (it read "Appro" / "ve"). */
      @container (max-width: 160px) {
        .buttons vscode-button::part(base) {
          padding-inline: 6px;
        }
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
      .hidden-chars {
        display: flex;
        gap: 4px;
        margin: 0 0 6px;
        color: var(--vscode-foreground);
      }
      .hidden-chars .codicon {
        color: var(--vscode-notificationsWarningIcon-foreground);
      }
      .hint {
        font-family: var(--vscode-font-family);
        color: var(--vscode-descriptionForeground);
      }
    `,
  ];
}

customElements.define('cd-approval', CdApproval);
