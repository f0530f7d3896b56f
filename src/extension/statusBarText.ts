// The status bar item's text and tooltip, kept apart from VS Code so unit tests read them. Figures follow
// the panel's rules (protocol/), so the two never disagree.
import type { ChatSnapshot } from '../protocol/chat';
import { modelsShown, moreModels } from '../protocol/model-units';
import { formatUsd } from '../protocol/money';
import { budgetLabel, formatTokens, heldAsEstimate } from '../protocol/token-count';
import { formatCount } from '../core/numbers';

/** Share of the context window the last call used, in whole percent (0 when the window is unknown). */
export function windowPercent(s: Pick<ChatSnapshot, 'meter'>): number {
  const m = s.meter;
  return m.contextWindow > 0 ? Math.round((m.tokensInWindow / m.contextWindow) * 100) : 0;
}

export function statusBarText(s: Pick<ChatSnapshot, 'meter'>): string {
  const m = s.meter;
  const approx = m.estimated ? '≈' : '';
  return `$(layers) ${approx}${formatTokens(m.tokensInWindow)}/${formatTokens(m.contextWindow)} (${windowPercent(s)}%)`;
}

/**
 * A model's name as Markdown text, never a link, image, emphasis or HTML: their punctuation escaped (and
 * `:` and `.`, so no bare URL is linked). It is mid-line, so a list or heading mark cannot start there.
 */
function markdownText(s: string): string {
  return s.replace(/[\\`*_{}[\]()<>!|~&:.]/g, (c) => `\\${c}`);
}

/** Each earlier model's units under its name, not added to each other or to this model's. */
function earlierLine(list: ChatSnapshot['meter']['otherModelUnits'], inMoney: boolean): string {
  const { named, more } = modelsShown(list);
  if (named.length === 0) return '';
  const each = named.map((e) => `${markdownText(e.model)}: ${formatCount(Math.round(e.units))} units`);
  return (
    `Earlier models, each in its own units${inMoney ? ' (in the money above)' : ", not added (a model's price is not known)"}: ${each.join('; ')}` +
    (more > 0 ? `; ${moreModels(more)}` : '')
  );
}

/** Each separate summary model's units under its name, not added (see ContextMeter.summaryUnits). */
function summaryLine(list: ChatSnapshot['meter']['summaryUnits']): string {
  const { named, more } = modelsShown(list);
  if (named.length === 0) return '';
  const each = named.map((e) => `${markdownText(e.model)}: ${formatCount(Math.round(e.units))} units`);
  return (
    `Summary models, each in its own units, not added (its price, or this model's, is not known): ${each.join('; ')}` +
    (more > 0 ? `; ${moreModels(more)}` : '')
  );
}

/** What the provider reported for the last call; reasoning apart, as it is output that is not sent back. */
function reportedLine(r: NonNullable<ChatSnapshot['meter']['reported']>): string {
  const cached = r.cachedTokens !== undefined ? ` (${formatCount(r.cachedTokens)} cached)` : '';
  const reasoning =
    r.reasoningTokens !== undefined && r.reasoningTokens > 0
      ? `, ${formatCount(r.reasoningTokens)} of them reasoning (billed as output, not sent back)`
      : '';
  const output = r.outputTokens !== undefined ? `; ${formatCount(r.outputTokens)} output tokens${reasoning}` : '';
  return `Provider reported: ${formatCount(r.inputTokens)} prompt tokens${cached}${output}`;
}

/** The tooltip's paragraphs (Markdown). */
export function statusBarTooltip(s: Pick<ChatSnapshot, 'strategy' | 'meter'>): string {
  const m = s.meter;
  const approx = m.estimated ? '≈' : '';
  const costApprox = heldAsEstimate(m) && m.costUnits > 0 ? '≈ ' : '';
  return [
    `**Context Desk** — ${s.strategy}, ${m.calls} calls`,
    `Last call: ${approx}${formatCount(m.tokensInWindow)} tokens sent (raw history: ${formatCount(m.rawHistoryTokens)}), ${formatCount(m.cachedTokens)} cacheable`,
    m.reported ? reportedLine(m.reported) : '',
    `Masked observations: ${m.maskedObservations}${m.maskedStored !== undefined ? ` (${m.maskedStored} stored)` : ''}`,
    m.costUsd !== undefined
      ? `Cost so far: ${costApprox}${formatUsd(m.costUsd)} (${formatCount(Math.round(m.costUnits))} units${m.otherModelUnits?.length ? ' of the current model' : ''})`
      : `Cost so far: ${costApprox}${formatCount(Math.round(m.costUnits))} units (input-token equivalents: one unit is one uncached input token; the price of this model is not known)`,
    earlierLine(m.otherModelUnits, m.costUsd !== undefined),
    summaryLine(m.summaryUnits),
    // The panel's rule: ≈ while the budget holds our scaled estimate of calls the provider did not report.
    m.budget ? `Budget: ${m.budget.state}, ${budgetLabel(m)} of ${formatCount(m.budget.limit)}` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}
