// <cd-meter>: the context on one line (tokens in the window against the model's window, cost, masked),
// expanding on demand into the details and the per-call plot. Every number comes from ContextMeter.
import { LitElement, css, html, nothing } from 'lit';
import type { CallPoint, ContextMeter } from '../../protocol/chat';
import { budgetLabel, cachedShare, formatPercent, formatTokens, tokenLabel, windowShare } from '../lib/format';
import { costLabel, maskedLabel, plural, reportedLabel } from '../lib/labels';
import { codicons } from './codicons';
import './plot';

const BUDGET_TEXT = {
  ok: 'within budget',
  warning: 'nearing the limit',
  backpressure: 'slowing down',
  'awaiting-approval': 'waiting for approval',
  refused: 'next call refused (it would pass the limit)',
  exceeded: 'over the limit',
} as const;

/**
 * The dot before each figure. Every figure has one, and each line of figures starts one dot's width left
 * of the clipping box (.figures), so the dot of whichever figure wraps to the start of a line is cut away
 * instead of starting that line.
 */
const SEP = html`<span class="sep" aria-hidden="true">·</span>`;

/** The token figure's explanation, on the line's figure and the details' Window. */
const WINDOW_TEXT = 'Tokens in the context sent on the last call, against the model’s context window';

export class CdMeter extends LitElement {
  static override properties = {
    meter: { attribute: false },
    series: { attribute: false },
    strategy: { attribute: false },
    open: { type: Boolean, reflect: true },
  };
  declare meter: ContextMeter | undefined;
  declare series: CallPoint[];
  declare strategy: string;
  declare open: boolean;

  constructor() {
    super();
    this.series = [];
    this.strategy = '';
    this.open = false;
  }

  private toggle(): void {
    this.open = !this.open;
    this.dispatchEvent(new CustomEvent('cd-meter-open', { detail: this.open, bubbles: true, composed: true }));
  }

  override render(): unknown {
    const m = this.meter;
    if (!m) return nothing;
    const share = windowShare(m);
    const est = m.estimated;
    const level = share > 0.9 ? 'high' : share > 0.7 ? 'mid' : 'low';
    const cost = costLabel(m);
    const b = m.budget;
    // A budget that needs attention comes first on the line, where a narrow panel cannot cut it off.
    const budgetFirst = b !== undefined && b.state !== 'ok';
    const budget = b
      ? html`<span class="budget ${b.state}" data-testid="meter-budget" title=${BUDGET_TEXT[b.state] ?? b.state}
          >${budgetFirst ? html`<span class="codicon codicon-warning" aria-hidden="true"></span>` : nothing}budget
          ${budgetLabel(m)}</span
        >`
      : nothing;
    return html`<div class="meter" data-testid="meter">
      <button
        type="button"
        class="line"
        aria-expanded=${this.open ? 'true' : 'false'}
        aria-controls="details"
        title="Context details and the per-call plot"
        data-testid="meter-toggle"
        @click=${() => this.toggle()}
      >
        <span class="codicon codicon-chevron-${this.open ? 'down' : 'right'}" aria-hidden="true"></span>
        <span class="figures"
          ><span class="row"
            ><span class="part"
              >${SEP}<span
                class="bar ${level}"
                role="meter"
                aria-label="Tokens in the context window"
                aria-valuemin="0"
                aria-valuemax=${m.contextWindow}
                aria-valuenow=${Math.min(m.tokensInWindow, m.contextWindow)}
                aria-valuetext="${formatTokens(m.tokensInWindow)} of ${formatTokens(m.contextWindow)} tokens"
                ><span class="fill" style="width:${(share * 100).toFixed(1)}%"></span></span
              ><span class="value" data-testid="meter-tokens" title=${WINDOW_TEXT}
                >${tokenLabel(m.tokensInWindow, est)} / ${formatTokens(m.contextWindow)}</span
              ></span
            >${budgetFirst ? html`<span class="part">${SEP}${budget}</span>` : nothing}<span class="part"
              >${SEP}<span class="value" data-testid="meter-cost" title=${cost.title}>${cost.text}</span></span
            >${
              m.maskedObservations > 0
                ? html`<span class="part"
                    >${SEP}<span class="value" data-testid="meter-masked" title=${maskedLabel(m)}
                      >${m.maskedObservations} masked</span
                    ></span
                  >`
                : nothing
            }${b && !budgetFirst ? html`<span class="part">${SEP}${budget}</span>` : nothing}</span
          ></span
        >
      </button>
      ${this.open ? this.details(m) : nothing}
    </div>`;
  }

  private details(m: ContextMeter): unknown {
    const est = m.estimated;
    const cost = costLabel(m);
    // Each figure's explanation: its tooltip for the mouse, and the same words under "What these figures
    // mean" (a tooltip cannot be reached from the keyboard nor read by a screen reader).
    const why: [string, string][] = [];
    const stat = (label: string, value: unknown, cls = '', title = ''): unknown => {
      if (title) why.push([label, title]);
      return html`<div class="stat ${cls}" title=${title}><span class="k">${label}</span> ${value}</div>`;
    };
    const stats = html`
      ${stat('Window', `${tokenLabel(m.tokensInWindow, est)} of ${formatTokens(m.contextWindow)} tokens (${formatPercent(windowShare(m))})`, '', WINDOW_TEXT)}
      ${stat('Strategy', html`<span data-testid="strategy">${this.strategy}</span>`)}
      ${stat('Cached', `${formatPercent(cachedShare(m))} (${tokenLabel(m.cachedTokens, est)})`, '', 'Tokens of the last call the provider’s prompt cache could serve')}
      ${stat('Raw history', tokenLabel(m.rawHistoryTokens, est), '', 'What sending the whole history would have cost on the last call')}
      ${stat('Provider reported', html`<span data-testid="meter-reported">${reportedLabel(m) ?? 'nothing (estimates only)'}</span>`, '', 'Prompt tokens the provider billed for the last call, beside this meter’s own count; cost uses the provider’s figures when it reports them')}
      ${stat('Cost', html`<span data-testid="meter-cost-detail">${cost.text}</span>`, '', cost.title)}
      ${stat('Calls', String(m.calls))}
      ${
        m.totals
          ? stat(
              'Sent so far',
              html`<span data-testid="meter-sent-total">${tokenLabel(m.totals.tokensSent, est)}</span>`,
              '',
              'Tokens sent over all calls of this session (the call records in its history file add up to this)',
            )
          : nothing
      }
      ${
        m.totals && m.totals.reportedCalls > 0
          ? stat(
              'Billed so far',
              html`<span data-testid="meter-billed-total"
                >${formatTokens(m.totals.reportedInputTokens)} (${formatTokens(m.totals.reportedCachedTokens)}
                cached)</span
              >`,
              '',
              `Prompt tokens the provider reported over ${plural(m.totals.reportedCalls, 'call')}`,
            )
          : nothing
      }
      ${stat('Observations', maskedLabel(m), '', 'Masked observations are replaced by a one-line placeholder in what the model sees; stored ones can be opened')}
      ${
        m.budget
          ? stat(
              'Budget',
              `${budgetLabel(m)} of ${plural(m.budget.limit, 'token')} · ${BUDGET_TEXT[m.budget.state] ?? m.budget.state}`,
              `budget ${m.budget.state}`,
            )
          : nothing
      }
      ${est ? stat('Counts', 'estimated', '', 'Not the model’s own tokenizer (characters / 4, or another family’s, as o200k for Claude): the provider’s count is the one it bills') : nothing}
    `;
    return html`<div class="details" id="details" data-testid="meter-details">
      <div class="stats">${stats}</div>
      <details class="why" data-testid="meter-why">
        <summary>What these figures mean</summary>
        <dl>
          ${why.map(
            ([k, v]) =>
              html`<dt>${k}</dt>
                <dd>${v}</dd>`,
          )}
        </dl>
      </details>
      <cd-plot .series=${this.series}></cd-plot>
    </div>`;
  }

  static override styles = [
    codicons,
    css`
      :host {
        display: block;
        container-type: inline-size;
      }
      /* A narrow sidebar keeps the numbers and drops the bar. */
      @container (max-width: 330px) {
        .bar {
          display: none;
        }
      }
      .line {
        display: flex;
        align-items: flex-start;
        gap: 5px;
        width: 100%;
        min-width: 0;
        padding: 2px 0;
        font: inherit;
        font-size: 0.92em;
        color: var(--vscode-descriptionForeground);
        background: none;
        border: none;
        cursor: pointer;
        text-align: left;
        white-space: nowrap;
      }
      .line > .codicon {
        flex: none;
      }
      .figures {
        flex: 1;
        min-width: 0;
        overflow: hidden;
      }
      /* A narrow panel puts the figures on more lines rather than cutting one off. */
      .row {
        display: flex;
        flex-wrap: wrap;
        align-items: center;
        margin-left: -14px;
      }
      .part {
        display: inline-flex;
        align-items: center;
        max-width: 100%;
      }
      .sep {
        flex: none;
        width: 14px;
        text-align: center;
      }
      .line:hover {
        color: var(--vscode-foreground);
      }
      /* Inside the line: the dock's scroller clips what is drawn outside it (the focus was not seen). */
      .line:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: -1px;
      }
      /* Wraps only when alone on its line and still too wide (flex-wrap breaks lines first). */
      .value {
        min-width: 0;
        white-space: normal;
        font-variant-numeric: tabular-nums;
      }
      /* 220 px at 200 % zoom is 110 px: "budget 85%" with its icon may need two lines there. */
      .budget {
        min-width: 0;
        white-space: normal;
      }
      .bar {
        position: relative;
        flex: none;
        width: 36px;
        margin-right: 5px;
        height: 6px;
        background: var(--vscode-input-background);
        border: 1px solid var(--vscode-widget-border, var(--vscode-contrastBorder, transparent));
        border-radius: 3px;
        overflow: hidden;
      }
      .fill {
        position: absolute;
        inset: 0 auto 0 0;
        background: var(--vscode-progressBar-background);
      }
      .mid .fill {
        background: var(--vscode-charts-yellow);
      }
      .high .fill {
        background: var(--vscode-charts-red);
      }
      .details {
        max-height: 45vh;
        overflow-y: auto;
        padding: 2px 0 4px;
      }
      .stats {
        display: grid;
        /* One column below 150 px (110 px, or 220 at 200 % zoom): a 150 px minimum ran past the edge. */
        grid-template-columns: repeat(auto-fill, minmax(min(150px, 100%), 1fr));
        gap: 2px 10px;
        margin: 2px 0 4px;
        font-size: 0.92em;
      }
      .stat {
        min-width: 0;
        overflow-wrap: anywhere;
        font-variant-numeric: tabular-nums;
      }
      .k {
        color: var(--vscode-descriptionForeground);
      }
      .why {
        margin: 0 0 4px;
        font-size: 0.92em;
      }
      .why summary {
        cursor: pointer;
        color: var(--vscode-textLink-foreground);
      }
      .why summary:focus-visible {
        outline: 1px solid var(--vscode-focusBorder);
        outline-offset: -1px;
      }
      .why dl {
        margin: 2px 0 0;
      }
      .why dt {
        color: var(--vscode-descriptionForeground);
      }
      .why dd {
        margin: 0 0 3px 10px;
        overflow-wrap: anywhere;
      }
      /* The words in the foreground colour (a warning colour is faint on a light theme), the icon in warning. */
      .budget:not(.ok) {
        display: inline-flex;
        align-items: center;
        gap: 2px;
        color: var(--vscode-foreground);
      }
      .budget .codicon {
        color: var(--vscode-editorWarning-foreground);
      }
      .budget.exceeded .codicon {
        color: var(--vscode-errorForeground);
      }
      .budget.exceeded {
        color: var(--vscode-errorForeground);
      }
    `,
  ];
}

customElements.define('cd-meter', CdMeter);
