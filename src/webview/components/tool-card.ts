// <cd-tool-card>: one tool call: name with a codicon, state, duration, arguments (collapsed JSON) and
// the output preview (collapsible, monospace). Masked observations say so and link to the stored file.
import { LitElement, css, html, nothing, type TemplateResult } from 'lit';
import type { ChatToolCall } from '../../protocol/chat';
import { formatDuration, prettyArguments } from '../lib/format';
import { outputLabels } from '../lib/labels';
import { revealInvisible } from '../lib/invisible';
import { requestHost } from '../events';
import { disclosures } from '../lib/disclosures';
import { codeBlock } from './codeBlock';
import { codicons } from './codicons';

const STATE_ICON: Record<ChatToolCall['state'], string> = {
  running: 'codicon-loading codicon-modifier-spin',
  ok: 'codicon-pass',
  error: 'codicon-error',
  invalid: 'codicon-warning',
  cancelled: 'codicon-circle-slash',
};

/** A codicon for well-known tool names; anything else gets the generic tool icon. */
function toolIcon(tool: string): string {
  if (/read|open|cat|view/i.test(tool)) return 'codicon-file';
  if (/write|edit|patch|replace/i.test(tool)) return 'codicon-edit';
  if (/search|grep|find/i.test(tool)) return 'codicon-search';
  if (/run|exec|shell|terminal|bash|command/i.test(tool)) return 'codicon-terminal';
  if (/list|ls|dir/i.test(tool)) return 'codicon-list-tree';
  return 'codicon-tools';
}

/** A path that wraps after its slashes first (a narrow panel cut `tool-` / `outputs`). */
function brokenAtSlashes(path: string): unknown[] {
  return path.split('/').map((part, i, all) => (i < all.length - 1 ? html`${part}/<wbr />` : part));
}

export class CdToolCard extends LitElement {
  static override properties = {
    call: { attribute: false },
    masked: { type: Boolean, reflect: true },
  };

  declare call: ChatToolCall;
  /** Reflected so the panel can count masked cards it actually renders. */
  declare masked: boolean;

  constructor() {
    super();
    this.masked = false;
  }

  override willUpdate(): void {
    this.masked = this.call?.masked === true;
  }

  private open(event: Event): void {
    event.preventDefault();
    if (this.call.storedAt) requestHost(this, 'openStored', { path: this.call.storedAt });
  }

  /** The stored file's path as the link that opens it (wrapping at its slashes in a narrow card). */
  private fileLink(tool: string, storedAt: string, testId: string): TemplateResult {
    return html`<button
      type="button"
      class="link path"
      data-testid=${testId}
      aria-label="Open the full output of ${tool} (${storedAt})"
      title="Open ${storedAt}"
      @click=${this.open}
    >
      ${brokenAtSlashes(storedAt)}
    </button>`;
  }

  /** A disclosure of this card is open: as the user left it, else `byDefault`. */
  private isOpen(part: string, byDefault: boolean): boolean {
    return disclosures.isOpen(`${this.call.callId}:${part}`, byDefault);
  }

  private toggled(part: string, byDefault: boolean): (e: Event) => void {
    return (e) => disclosures.set(`${this.call.callId}:${part}`, (e.target as HTMLDetailsElement).open, byDefault);
  }

  override render(): unknown {
    const c = this.call;
    if (!c) return nothing;
    const labels = outputLabels(c);
    const hasPreview = c.preview !== undefined && c.preview !== '';
    const outputOpen = !c.masked && c.state !== 'ok';
    return html`
      <div class="card state-${c.state}" role="group" aria-label="Tool call ${c.tool}, ${c.state}">
        <div class="head">
          <span class="codicon ${toolIcon(c.tool)}" aria-hidden="true"></span>
          <span class="name">${c.tool}</span>
          ${c.title ? html`<span class="title" data-testid="tool-title">${revealInvisible(c.title).text}</span>` : nothing}
          <span class="state" title=${c.state}>
            <span class="codicon ${STATE_ICON[c.state]}" aria-hidden="true"></span>${c.state}
          </span>
          ${c.durationMs !== undefined ? html`<span class="duration">${formatDuration(c.durationMs)}</span>` : nothing}
        </div>
        <details class="args" ?open=${this.isOpen('args', false)} @toggle=${this.toggled('args', false)}>
          <summary>Arguments</summary>
          <pre>${revealInvisible(prettyArguments(c.arguments)).text}</pre>
        </details>
        ${
          labels.masked
            ? html`<div class="masked" data-testid="masked" title=${labels.maskedTitle ?? ''}>
                  <span class="codicon codicon-eye-closed" aria-hidden="true"></span>
                  <span class="said"
                    >${labels.masked} ${c.storedAt ? this.fileLink(c.tool, c.storedAt, 'open-masked') : nothing}</span
                  >
                </div>
                ${
                  c.placeholder
                    ? html`<details
                        class="placeholder"
                        data-testid="masked-placeholder"
                        ?open=${this.isOpen('placeholder', false)}
                        @toggle=${this.toggled('placeholder', false)}
                      >
                        <summary>What the model sees now</summary>
                        <pre>${revealInvisible(c.placeholder).text}</pre>
                      </details>`
                    : nothing
                }`
            : nothing
        }
        ${
          hasPreview
            ? html`<details
                class="output"
                ?open=${this.isOpen('output', outputOpen)}
                @toggle=${this.toggled('output', outputOpen)}
              >
                <summary data-testid="output-summary">${labels.summary}</summary>
                <pre>${c.preview}</pre>
              </details>`
            : nothing
        }
        ${
          c.storedAt && !c.masked
            ? html`<div class="full">Full output: ${this.fileLink(c.tool, c.storedAt, 'open-full')}</div>`
            : nothing
        }
      </div>
    `;
  }

  static override styles = [
    codicons,
    codeBlock,
    css`
      :host {
        display: block;
        margin: 6px 0;
      }
      .card {
        border: 1px solid var(--vscode-widget-border, var(--vscode-panel-border));
        border-radius: 4px;
        padding: 4px 8px;
        background: var(--vscode-editorWidget-background);
      }
      .head {
        display: flex;
        align-items: center;
        gap: 6px;
        flex-wrap: wrap;
      }
      .name {
        font-family: var(--vscode-editor-font-family);
        font-weight: 600;
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .title {
        font-family: var(--vscode-editor-font-family);
        overflow-wrap: anywhere;
      }
      .state {
        display: inline-flex;
        align-items: center;
        gap: 3px;
        color: var(--vscode-descriptionForeground);
      }
      .state-ok .state .codicon {
        color: var(--vscode-testing-iconPassed, var(--vscode-charts-green));
      }
      /* The word in the foreground colour (the error colour is faint on a light theme), the icon in error. */
      .state-error .state,
      .state-invalid .state {
        color: var(--vscode-foreground);
      }
      .state-error .state .codicon,
      .state-invalid .state .codicon {
        color: var(--vscode-errorForeground);
      }
      .duration {
        margin-left: auto;
        color: var(--vscode-descriptionForeground);
      }
      details summary {
        cursor: pointer;
        color: var(--vscode-descriptionForeground);
        margin-top: 2px;
      }
      pre {
        margin: 4px 0;
        max-height: 240px;
      }
      .masked {
        display: flex;
        align-items: baseline;
        gap: 6px;
        margin-top: 4px;
        color: var(--vscode-descriptionForeground);
      }
      .masked .codicon {
        align-self: center;
      }
      /* Which file holds the full output is said, not only in a tooltip (keyboard and touch never see
         one); a long path wraps inside a 300 px panel, and a long word ("placeholder") at 110 px. */
      .masked .said {
        min-width: 0;
        overflow-wrap: anywhere;
      }
      .full {
        margin-top: 2px;
        color: var(--vscode-descriptionForeground);
      }
      .link.path {
        text-align: start;
        overflow-wrap: anywhere;
        font-family: var(--vscode-editor-font-family);
      }
      .link {
        background: none;
        border: none;
        padding: 0;
        font: inherit;
        font-style: normal;
        color: var(--vscode-textLink-foreground);
        cursor: pointer;
        text-decoration: underline;
      }
      .link:hover {
        color: var(--vscode-textLink-activeForeground);
      }
      :focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: 1px;
      }
    `,
  ];
}

customElements.define('cd-tool-card', CdToolCard);
