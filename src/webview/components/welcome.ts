// <cd-welcome>: what an empty conversation shows. Without a model it leads to the setup form or the demo
// model (no endpoint needed); with the demo it offers the tour; otherwise a short word on what the panel
// does with the context.
import { LitElement, css, html, nothing } from 'lit';
import type { SetupSummary } from '../../protocol/chat';
import { askHost, showView } from '../events';
import { buttons } from './buttons';
import { codicons } from './codicons';

export const DEMO_PROMPT = 'Show me how Context Desk keeps the context small.';

export class CdWelcome extends LitElement {
  static override properties = {
    setup: { attribute: false },
    model: { attribute: false },
    busy: { state: true },
    problem: { state: true },
  };
  declare setup: SetupSummary | undefined;
  declare model: string | undefined;
  declare busy: boolean;
  declare problem: string | undefined;

  constructor() {
    super();
    this.busy = false;
  }

  /** Switches to the demo model and starts its tour. */
  private async tryDemo(): Promise<void> {
    this.busy = true;
    this.problem = undefined;
    try {
      if (this.setup?.provider !== 'demo') {
        const r = await askHost(this, 'noticeAction', { action: 'useDemo' });
        if (!r.ok) throw new Error('The demo model could not be chosen.');
      }
      const sent = await askHost(this, 'send', { text: DEMO_PROMPT });
      if (!sent.accepted) throw new Error(sent.reason ?? 'The demo did not start.');
    } catch (e) {
      this.problem = e instanceof Error ? e.message : String(e);
    } finally {
      this.busy = false;
    }
  }

  override render(): unknown {
    const s = this.setup;
    if (!s) return nothing;
    if (!s.ready) return this.noModel(s);
    if (s.provider === 'demo')
      return html`<div class="welcome" data-testid="welcome">
        <h2><span class="codicon codicon-beaker" aria-hidden="true"></span> Demo model</h2>
        <p>
          A script inside Context Desk, not an AI: nothing leaves this machine. It plays a short task so you can watch
          long outputs go to files, old observations get masked, and the meter count every token.
        </p>
        <div class="actions">
          <button class="primary" data-testid="start-demo" ?disabled=${this.busy} @click=${() => void this.tryDemo()}>
            Start the tour
          </button>
          <button class="secondary" @click=${() => showView(this, 'setup')}>Set up a real model</button>
        </div>
        ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
      </div>`;
    return html`<div class="welcome" data-testid="welcome">
      <h2><span class="codicon codicon-comment-discussion" aria-hidden="true"></span> Ask the agent</h2>
      <p>
        About this workspace, with <strong>${this.model ?? 'your model'}</strong>. Its context stays small: long outputs
        go to files, old observations are masked (and can be opened), every token is counted in the meter below.
      </p>
    </div>`;
  }

  private noModel(s: SetupSummary): unknown {
    return html`<div class="welcome" data-testid="welcome">
      <h2><span class="codicon codicon-plug" aria-hidden="true"></span> No model yet</h2>
      <p>${s.hint ?? 'Choose the model the agent talks to.'}</p>
      <div class="actions">
        <button class="primary" data-testid="open-setup" @click=${() => showView(this, 'setup')}>
          <span class="codicon codicon-gear" aria-hidden="true"></span> Set up a model
        </button>
        <button class="secondary" data-testid="try-demo" ?disabled=${this.busy} @click=${() => void this.tryDemo()}>
          <span class="codicon codicon-beaker" aria-hidden="true"></span> Try the demo model
        </button>
      </div>
      <p class="note">
        The demo model is a script inside Context Desk: no endpoint, no key, nothing sent anywhere. It shows masking,
        the meter and stored outputs at work.
      </p>
      ${this.problem ? html`<p class="problem" role="alert">${this.problem}</p>` : nothing}
    </div>`;
  }

  static override styles = [
    codicons,
    buttons,
    css`
      :host {
        display: block;
      }
      .welcome {
        padding: 12px 4px;
        max-width: 36em;
      }
      h2 {
        display: flex;
        align-items: center;
        gap: 6px;
        margin: 0 0 6px;
        font-size: 1.1em;
        font-weight: 600;
      }
      /* A model name or an endpoint in a hint has no spaces: at 220 px it ran past the panel's edge. */
      p {
        margin: 0 0 10px;
        line-height: 1.45;
        overflow-wrap: anywhere;
      }
      .note {
        color: var(--vscode-descriptionForeground);
        font-size: 0.92em;
      }
      .problem {
        color: var(--vscode-errorForeground);
      }
      .actions {
        display: flex;
        flex-wrap: wrap;
        gap: 6px;
        margin-bottom: 10px;
      }
    `,
  ];
}

customElements.define('cd-welcome', CdWelcome);
