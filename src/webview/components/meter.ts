// <cd-meter>: where the context stands: tokens in the window against the model's window (a bar),
// cached share, cost, calls, masked observations and the budget. Every number comes from ContextMeter.
import { LitElement, css, html, nothing } from 'lit';
import type { ContextMeter } from '../../protocol/chat';
import { cachedShare, formatPercent, formatTokens, formatUsd, tokenLabel, windowShare } from '../lib/format';

const BUDGET_TEXT = {
  ok: 'within budget',
  warning: 'nearing the limit',
  backpressure: 'slowing down',
  'awaiting-approval': 'waiting for approval',
  exceeded: 'exceeded',
} as const;

function stat(label: string, value: string, cls = ''): unknown {
  return html`<div class="stat ${cls}"><span class="k">${label}</span> ${value}</div>`;
}

export class CdMeter extends LitElement {
  static override properties = { meter: { attribute: false } };
  declare meter: ContextMeter | undefined;

  override render(): unknown {
    const m = this.meter;
    if (!m) return nothing;
    const share = windowShare(m);
    const est = m.estimated;
    const level = share > 0.9 ? 'high' : share > 0.7 ? 'mid' : 'low';
    return html`<div class="meter" data-testid="meter" aria-label="Context meter">
      <div class="line">
        <span>Context</span>
        <span class="value"
          >${tokenLabel(m.tokensInWindow, est)} / ${formatTokens(m.contextWindow)} tokens
          (${formatPercent(share)})${est ? html` <span class="est">≈ (estimate)</span>` : nothing}</span
        >
      </div>
      <div
        class="bar ${level}"
        role="meter"
        aria-label="Tokens in the context window"
        aria-valuemin="0"
        aria-valuemax=${m.contextWindow}
        aria-valuenow=${m.tokensInWindow}
        aria-valuetext="${formatTokens(m.tokensInWindow)} of ${formatTokens(m.contextWindow)} tokens"
      >
        <div class="fill" style="width:${(share * 100).toFixed(2)}%"></div>
        <div class="cached" style="width:${(share * cachedShare(m) * 100).toFixed(2)}%"></div>
      </div>
      <div class="stats">
        ${stat('Cached', `${formatPercent(cachedShare(m))} (${tokenLabel(m.cachedTokens, est)})`)}
        ${stat('Raw history', tokenLabel(m.rawHistoryTokens, est))}
        ${stat('Cost', `${formatTokens(m.costUnits)} units${m.costUsd !== undefined ? ` · ${formatUsd(m.costUsd)}` : ''}`)}
        ${stat('Calls', String(m.calls))}
        ${stat('Masked', `${m.maskedObservations} observation${m.maskedObservations === 1 ? '' : 's'}`)}
        ${
          m.budget
            ? stat(
                'Budget',
                `${Math.round(m.budget.usedPercent)}% of ${formatTokens(m.budget.limit)} · ${BUDGET_TEXT[m.budget.state] ?? m.budget.state}`,
                `budget ${m.budget.state}`,
              )
            : nothing
        }
      </div>
    </div>`;
  }

  static override styles = css`
    :host {
      display: block;
    }
    .line {
      display: flex;
      justify-content: space-between;
      gap: 8px;
      flex-wrap: wrap;
    }
    .value {
      font-variant-numeric: tabular-nums;
    }
    .est {
      color: var(--vscode-descriptionForeground);
    }
    .bar {
      position: relative;
      height: 6px;
      margin: 4px 0;
      background: var(--vscode-input-background);
      border: 1px solid var(--vscode-widget-border, transparent);
      border-radius: 3px;
      overflow: hidden;
    }
    .fill,
    .cached {
      position: absolute;
      top: 0;
      left: 0;
      bottom: 0;
    }
    .fill {
      background: var(--vscode-progressBar-background);
    }
    .mid .fill {
      background: var(--vscode-charts-yellow);
    }
    .high .fill {
      background: var(--vscode-charts-red);
    }
    .cached {
      background: var(--vscode-charts-green);
      opacity: 0.7;
    }
    .stats {
      display: grid;
      grid-template-columns: repeat(auto-fill, minmax(120px, 1fr));
      gap: 2px 10px;
      margin-top: 4px;
    }
    .stat {
      font-variant-numeric: tabular-nums;
    }
    .k {
      color: var(--vscode-descriptionForeground);
    }
    .budget.warning,
    .budget.backpressure,
    .budget.awaiting-approval {
      color: var(--vscode-editorWarning-foreground);
    }
    .budget.exceeded {
      color: var(--vscode-errorForeground);
    }
  `;
}

customElements.define('cd-meter', CdMeter);
