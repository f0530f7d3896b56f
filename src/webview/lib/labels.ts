// Labels whose words must mean what they say: plurals, costs (money or labelled units), masking, budget
// and past sessions. Pure (no DOM) so node tests cover every wording.
import type { ChatToolCall, ContextMeter, SessionSummary } from '../../protocol/chat';
import { modelsShown, moreModels } from '../../protocol/model-units';
import { heldAsEstimate } from '../../protocol/token-count';
import { formatTokens, formatUsd } from './format';

/** "1 line", "2 lines", "1,502 lines" (thousands separated). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

export const UNIT_TOOLTIP =
  'Cost units are input-token equivalents: one unit is what one uncached input token costs. Cached input, cache writes and output tokens count at their price relative to it (contextDesk.cachedInputPrice and contextDesk.cacheWritePrice; output at 4). The model’s price is not known: add it to contextDesk.prices to see money.';

/** Why the summary model's units are shown apart (see ContextMeter.summaryUnits). */
export const SUMMARY_UNITS_TOOLTIP =
  'Cost units are input-token equivalents: one unit is what one uncached input token costs. The agent model’s units come first; the summary model’s calls follow in its own units (its uncached input tokens). They are not added up and no money is shown: the summary model’s price, or the agent model’s, is not known. Add it to contextDesk.prices to see money.';

/** Why earlier models' units are shown apart (see ContextMeter.otherModelUnits). */
export const OTHER_MODEL_UNITS_TOOLTIP =
  'Cost units are input-token equivalents of one model: one unit is what one uncached input token of it costs. This conversation switched models; the current model’s units come first, the earlier models’ follow, each in its own units. They are not added up and no money is shown: a model’s price is not known. Add it to contextDesk.prices to see money.';

/** Where the money's price comes from: "gpt-4o, default price table of 2026-11-24" or "my-model, contextDesk.prices". */
export function priceSource(p: NonNullable<ContextMeter['price']>): string {
  return p.source === 'setting'
    ? `${p.model}, from contextDesk.prices`
    : `${p.model}, default price table${p.asOf ? ` of ${p.asOf}` : ''} (check your provider)`;
}

/**
 * Cost as money when the price is known, else labelled units, with the explanation for a tooltip; marked
 * "≈" by the budget's rule, while it holds our estimate of calls the provider did not report.
 */
export function costLabel(
  m: Pick<ContextMeter, 'costUnits' | 'costUsd' | 'price'> &
    Partial<Pick<ContextMeter, 'estimated' | 'totals' | 'calls' | 'summaryUnits' | 'otherModelUnits'>>,
): { text: string; title: string } {
  const held = heldAsEstimate({ estimated: m.estimated ?? false, calls: m.calls ?? 0, totals: m.totals });
  const approx = held && m.costUnits > 0 ? '≈ ' : ''; // nothing spent is exact
  const estimate = approx ? ' An estimate: the provider did not report what some calls used.' : '';
  // Another model's units cannot be added to this one's: both shown, and no total.
  const summaries = summaryUnitsText(m.summaryUnits);
  if (summaries)
    return {
      text: `${approx}${formatTokens(m.costUnits)} units${summaries}`,
      title: SUMMARY_UNITS_TOOLTIP + estimate,
    };
  const earlier = m.costUsd === undefined ? earlierUnitsText(m.otherModelUnits) : '';
  if (earlier)
    return {
      text: `${approx}${formatTokens(m.costUnits)} units${earlier}`,
      title: OTHER_MODEL_UNITS_TOOLTIP + estimate,
    };
  if (m.costUsd !== undefined)
    return {
      text: `${approx}${formatUsd(m.costUsd)}`,
      title:
        `${approx}${formatUsd(m.costUsd)} so far (${unitsBesideMoney(m.costUnits, m.otherModelUnits)})` +
        (m.price ? `; price: ${priceSource(m.price)}.` : '.') +
        estimate,
    };
  return { text: `${approx}${formatTokens(m.costUnits)} units`, title: UNIT_TOOLTIP + estimate };
}

/** The units the money is the price of: after a switch of model, each model's apart, by name. */
function unitsBesideMoney(units: number, other: ContextMeter['otherModelUnits']): string {
  const { named, more } = modelsShown(other);
  if (named.length === 0) return `${formatTokens(units)} units: input-token equivalents`;
  const each = named.map((e) => `${formatTokens(e.units)} units of ${e.model}`).join(', ');
  return (
    `${formatTokens(units)} units of the current model; earlier models in their own units: ${each}` +
    (more > 0 ? ` ${moreModels(more)}` : '')
  );
}

/** " + 21.2k summary units of my-llm": each separate summary model apart, by name. */
function summaryUnitsText(list: ContextMeter['summaryUnits']): string {
  const { named, more } = modelsShown(list);
  const each = named.map((e) => ` + ${formatTokens(e.units)} summary units of ${e.model}`).join('');
  return each + (more > 0 ? ` ${moreModels(more)}` : '');
}

/** " + 1.04k units of gpt-4o + 270 units of my-llama and 2 more models": each model apart, by name. */
function earlierUnitsText(list: ContextMeter['otherModelUnits']): string {
  const { named, more } = modelsShown(list);
  const each = named.map((e) => ` + ${formatTokens(e.units)} units of ${e.model}`).join('');
  return each + (more > 0 ? ` ${moreModels(more)}` : '');
}

/**
 * What the provider reported for the last call beside our count: "12,480 (estimate 12,301, +1.5 %)";
 * undefined when it reported nothing.
 */
export function reportedLabel(m: Pick<ContextMeter, 'reported' | 'tokensInWindow'>): string | undefined {
  const r = m.reported;
  if (!r) return undefined;
  const est = m.tokensInWindow;
  const diff = est > 0 ? ((r.inputTokens - est) / est) * 100 : 0;
  const sign = diff > 0 ? '+' : diff < 0 ? '−' : '±';
  const cached = r.cachedTokens !== undefined ? `, ${formatTokens(r.cachedTokens)} cached` : '';
  return `${formatTokens(r.inputTokens)}${cached} (estimate ${formatTokens(est)}, ${sign}${Math.abs(diff).toFixed(1)} %)`;
}

/** The History list's line under a title: turns, calls and cost when known, and the date. */
export function sessionMeta(s: SessionSummary, now = Date.now()): string {
  const parts = [plural(s.turns, 'turn')];
  if (s.calls !== undefined) parts.push(plural(s.calls, 'call'));
  if (s.costUsd !== undefined) parts.push(formatUsd(s.costUsd));
  else if (s.costUnits !== undefined)
    parts.push(
      `${formatTokens(s.costUnits)} units` + summaryUnitsText(s.summaryUnits) + earlierUnitsText(s.otherModelUnits),
    );
  else parts.push('cost not recorded');
  parts.push(shortDate(s.updatedAt ?? s.createdAt, now));
  return parts.join(' · ');
}

function shortDate(ms: number, now: number): string {
  const d = new Date(ms);
  const sameDay = new Date(now).toDateString() === d.toDateString();
  return sameDay
    ? d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : d.toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
}

/**
 * What a tool card says about its output: the summary of the collapsible preview (what the model saw,
 * the full size) and, once masked, what the model sees now.
 */
export function outputLabels(c: ChatToolCall): { summary: string; masked?: string; maskedTitle?: string } {
  const full = c.outputLines;
  const seen = c.masked ? 'What the model first saw' : 'What the model saw';
  if (c.storedAt !== undefined) {
    const size = full === undefined ? 'full output stored' : `full output ${plural(full, 'line')}, stored`;
    const summary = c.shownWhole
      ? `${seen}: the whole output${full === undefined ? '' : ` · ${plural(full, 'line')}`}, also stored`
      : `${seen}: a preview · ${size}`;
    if (!c.masked) return { summary };
    const seenLines = c.maskedLines?.toLocaleString('en-US');
    const preview =
      seenLines === undefined
        ? ''
        : c.shownWhole
          ? ` of ${plural(c.maskedLines!, 'line')}`
          : ` of the ${seenLines}-line preview`;
    return {
      summary,
      masked: `Masked: the model now sees a one-line placeholder instead${preview}; the full text is in`,
      ...(c.placeholder ? { maskedTitle: `What the model sees now: ${c.placeholder}` } : {}),
    };
  }
  const lines = c.masked ? (c.maskedLines ?? full) : full;
  const summary = lines === undefined ? `${seen} (the start is shown)` : `${seen} · ${plural(lines, 'line')}`;
  if (!c.masked) return { summary };
  return {
    summary,
    masked: `Masked, not stored: the model now sees a one-line placeholder instead of ${lines === undefined ? 'this output' : plural(lines, 'line')}`,
    ...(c.placeholder ? { maskedTitle: `What the model sees now: ${c.placeholder}` } : {}),
  };
}

/** The meter's masked count: "5 masked (2 stored)". */
export function maskedLabel(m: Pick<ContextMeter, 'maskedObservations' | 'maskedStored'>): string {
  const n = m.maskedObservations;
  if (n === 0) return '0 masked';
  const stored = m.maskedStored;
  if (stored === undefined) return `${n} masked`;
  if (stored === n) return `${n} masked (${stored === 1 ? 'stored' : 'all stored'})`;
  return `${n} masked (${stored === 0 ? 'none' : stored} stored)`;
}
