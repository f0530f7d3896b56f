// Templates for the Agent panel's fixed dock below the conversation: the approval prompt (where model
// output cannot reach it), the panel's error line, the run's one-line status, the one-line context meter
// and the composer. They render into <cd-app>'s shadow root (app.ts), which adopts `dockStyles`.
import { css, html, nothing } from 'lit';
import type { ChatSnapshot } from '../../protocol/chat';
import type { PanelSettings, PanelView } from '../../protocol/messages';
import { statusText } from '../lib/format';
import './meter';
import './approval';
import './composer';

export interface DockState {
  chat: ChatSnapshot;
  view: PanelView;
  settings: PanelSettings | undefined;
  /** The error line (undefined: none). */
  error: string | undefined;
  dismissError: () => void;
  /** The composer's text as the host last heard it. */
  draft: string;
  meterOpen: boolean;
}

/** The dock, while chatting or when there is a prompt or an error to show. */
export function dock(d: DockState): unknown {
  const c = d.chat;
  return d.view === 'chat' || c.approval || d.error
    ? html`<footer class="dock ${c.approval ? 'asking' : ''}">
        <div class="dock-scroll">
          <cd-approval .approval=${c.approval}></cd-approval>
          ${
            d.error
              ? html`<div class="error" role="alert" data-testid="panel-error">
                  <span class="codicon codicon-error" aria-hidden="true"></span>
                  <span class="text">${d.error}</span>
                  <button type="button" class="dismiss" aria-label="Dismiss" title="Dismiss" @click=${d.dismissError}>
                    <span class="codicon codicon-close" aria-hidden="true"></span>
                  </button>
                </div>`
              : nothing
          }
          ${d.view === 'chat' ? chatStatus(c, d) : nothing}
        </div>
        ${d.view === 'chat' ? composer(c, d) : nothing}
      </footer>`
    : nothing;
}

/**
 * What the dock shows above the composer while chatting: the status line and the meter. The status line
 * is a live region that stays in the page, empty and without height while idle: screen readers do not
 * read a region inserted with its text already in it, so "The agent is working…" went unsaid.
 */
function chatStatus(c: ChatSnapshot, d: DockState): unknown {
  const running = c.status === 'running';
  const quiet = c.activity ?? (running || c.status !== 'idle' ? statusText(c.status) : undefined);
  return html`
    <div class="status-line ${quiet ? '' : 'empty'}" role="status" aria-live="polite">
      ${
        quiet
          ? html`${running ? html`<span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true"></span>` : nothing}
              ${c.status === 'error' || c.status === 'budget' ? html`<span class="codicon codicon-error" aria-hidden="true"></span>` : nothing}
              <span class="status ${c.status}" data-testid="status">${quiet}</span>`
          : nothing
      }
    </div>
    ${
      c.meter.calls > 0 || c.meter.budget || c.meter.maskedObservations > 0
        ? html`<cd-meter
            .meter=${c.meter}
            .series=${c.series}
            .strategy=${d.settings?.strategy ?? c.strategy}
            ?open=${d.meterOpen}
          ></cd-meter>`
        : nothing
    }
  `;
}

function composer(c: ChatSnapshot, d: DockState): unknown {
  return html`<cd-composer
    .draft=${d.draft}
    ?running=${c.status === 'running'}
    ?ready=${c.setup.ready}
    ?asking=${c.approval !== undefined}
    .strategy=${c.strategy}
    .strategies=${c.strategies}
    .model=${c.model}
    .models=${c.models}
  ></cd-composer>`;
}

export const dockStyles = css`
  /* The dock is painted above anything in main, and main's content cannot reach into it. */
  .dock {
    flex: none;
    position: relative;
    z-index: 1;
    padding: 4px 10px 8px;
    border-top: 1px solid var(--vscode-panel-border, var(--vscode-contrastBorder, transparent));
    background: var(--vscode-sideBar-background, var(--vscode-editor-background));
    max-height: 70vh;
    display: flex;
    flex-direction: column;
  }
  /* A waiting prompt may take more: at 200 % zoom (200 px tall) 70 % left it a sliver under the composer. */
  .dock.asking {
    max-height: 85vh;
  }
  /* 200 px tall: the prompt has priority over the conversation (the pickers fold away too: composer.ts). */
  @media (max-height: 260px) {
    .dock.asking {
      max-height: 100vh;
      box-sizing: border-box;
    }
  }
  /* The prompt, errors and the meter scroll; the composer below them always stays in view. */
  .dock-scroll {
    flex: 0 1 auto;
    min-height: 0;
    overflow-y: auto;
  }
  cd-composer {
    flex: none;
  }
  .status-line {
    display: flex;
    align-items: center;
    gap: 5px;
    min-height: 1.2em;
    font-size: 0.92em;
    color: var(--vscode-descriptionForeground);
  }
  .status-line.empty {
    min-height: 0;
  }
  /* Wraps: a retry's reason ("…: the provider is rate limiting") comes last and was cut at 300 px. */
  .status-line .status {
    min-width: 0;
    overflow-wrap: anywhere;
  }
  /* The words in the foreground colour (the error colour is faint on a light theme), the icon in error. */
  .status.error,
  .status.budget {
    color: var(--vscode-foreground);
  }
  .status-line .codicon-error {
    color: var(--vscode-errorForeground);
  }
  .error {
    display: flex;
    align-items: flex-start;
    gap: 5px;
    color: var(--vscode-errorForeground);
    margin: 2px 0 4px;
  }
  .error .text {
    flex: 1;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  .dismiss {
    flex: none;
    padding: 0 2px;
    border: none;
    background: none;
    color: var(--vscode-foreground);
    cursor: pointer;
  }
  .dismiss:focus-visible {
    outline: 1px solid var(--vscode-focusBorder);
  }
`;
