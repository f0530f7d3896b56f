// <cd-history>: past sessions, newest first, each titled by its first instruction with its turns, calls
// and cost. Choosing one resumes it (the conversation comes back with its masked markers and open links).
import { LitElement, css, html } from 'lit';
import type { SessionSummary } from '../../protocol/chat';
import { askHost, showView } from '../events';
import { sessionMeta } from '../lib/labels';
import { buttons } from './buttons';
import { codicons } from './codicons';

export class CdHistory extends LitElement {
  static override properties = {
    sessions: { attribute: false },
    current: { attribute: false },
    running: { type: Boolean },
    problem: { state: true },
  };
  declare sessions: SessionSummary[];
  declare current: string;
  declare running: boolean;
  declare problem: string | undefined;

  constructor() {
    super();
    this.sessions = [];
    this.current = '';
    this.running = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void askHost(this, 'refreshSessions', {}).catch(() => undefined);
  }

  private async open(id: string): Promise<void> {
    this.problem = undefined;
    if (id === this.current) return showView(this, 'chat');
    try {
      const r = await askHost(this, 'openSession', { sessionId: id });
      if (r.opened) showView(this, 'chat');
      else this.problem = 'That session could not be opened (see the notice in the chat).';
    } catch (e) {
      this.problem = e instanceof Error ? e.message : String(e);
    }
  }

  override render(): unknown {
    return html`<section class="history" data-testid="history" aria-label="Past sessions">
      <header>
        <h2>History</h2>
        <button type="button" class="link" @click=${() => showView(this, 'chat')}>Back to the chat</button>
      </header>
      ${this.running ? html`<p class="note">Stop the agent to open another session.</p>` : ''}
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : ''}
      ${
        this.sessions.length === 0
          ? html`<p class="note">No past sessions in this workspace yet.</p>`
          : html`<ul>
              ${this.sessions.map(
                (s) =>
                  html`<li>
                    <button
                      type="button"
                      class="session ${s.id === this.current ? 'current' : ''}"
                      data-testid="history-item"
                      ?disabled=${this.running && s.id !== this.current}
                      aria-current=${s.id === this.current ? 'true' : 'false'}
                      @click=${() => void this.open(s.id)}
                    >
                      <span class="title">${s.title}</span>
                      <span class="meta" data-testid="history-meta"
                        >${s.id === this.current ? 'open now · ' : ''}${sessionMeta(s)}</span
                      >
                      ${
                        s.foreign
                          ? html`<span
                              class="foreign"
                              data-testid="history-foreign"
                              title="Not written by Context Desk in this workspace (it may have come with the repository). Resuming asks first: its messages would be sent as yours."
                              ><span class="codicon codicon-warning" aria-hidden="true"></span>not written here</span
                            >`
                          : s.continued
                            ? html`<span
                                class="foreign"
                                data-testid="history-continued"
                                title="Continues a session not written by Context Desk in this workspace: its earlier messages were copied from that file and are not known to be yours. Resuming shows their hidden characters."
                                ><span class="codicon codicon-warning" aria-hidden="true"></span>continues one not
                                written here</span
                              >`
                            : ''
                      }
                    </button>
                  </li>`,
              )}
            </ul>`
      }
    </section>`;
  }

  static override styles = [
    codicons,
    buttons,
    css`
      :host {
        display: block;
        overflow-y: auto;
        padding: 8px 12px 16px;
      }
      header {
        display: flex;
        align-items: baseline;
        justify-content: space-between;
        gap: 8px;
        flex-wrap: wrap;
        margin-bottom: 6px;
      }
      h2 {
        margin: 0;
        font-size: 1.1em;
        font-weight: 600;
      }
      ul {
        list-style: none;
        margin: 0;
        padding: 0;
      }
      .session {
        display: flex;
        flex-direction: column;
        gap: 1px;
        width: 100%;
        padding: 5px 6px;
        font: inherit;
        color: var(--vscode-foreground);
        text-align: left;
        background: none;
        border: 1px solid transparent;
        border-radius: 3px;
        cursor: pointer;
      }
      .session:hover:not(:disabled) {
        background: var(--vscode-list-hoverBackground);
      }
      .session:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: -1px;
      }
      .session.current {
        border-color: var(--vscode-focusBorder);
      }
      .session:disabled {
        opacity: 0.6;
        cursor: default;
      }
      /* The words in the foreground colour (a warning colour is faint on a light theme), the icon in warning. */
      .foreign {
        display: inline-flex;
        align-items: center;
        gap: 3px;
        font-size: 0.85em;
        color: var(--vscode-foreground);
      }
      .foreign .codicon {
        font-size: 12px;
        color: var(--vscode-editorWarning-foreground);
      }
      /* Whole (at most 80 characters): titles often start alike ("Fix the failing test in …") and differ
         where one line at 300 px cut them off. */
      .title {
        overflow-wrap: anywhere;
      }
      .meta,
      .note {
        font-size: 0.9em;
        color: var(--vscode-descriptionForeground);
      }
      .problem {
        color: var(--vscode-errorForeground);
      }
    `,
  ];
}

customElements.define('cd-history', CdHistory);
