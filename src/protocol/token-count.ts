// Token counts as the panel and the status bar show them: one rule, so the two never disagree.
import type { ContextMeter } from './chat';

/** 950 -> "950", 12_345 -> "12.3k", 1_250_000 -> "1.25M". */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '–';
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  if (abs < 1_000_000) return `${trimZeros((n / 1000).toFixed(abs < 10_000 ? 2 : 1))}k`;
  return `${trimZeros((n / 1_000_000).toFixed(2))}M`;
}

/** "12.50" -> "12.5", "3.00" -> "3". */
export function trimZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/**
 * A budget's use (percent of its limit) as shown. Whole percents, except that use just under the limit
 * keeps one decimal rounded down and use just over it one decimal rounded up: 99.6 % of a budget that is
 * not yet spent read "100%", as if it were. Below 99 % it rounds down (79.6 % is not yet the 80 % warning).
 */
export function formatUsedPercent(percent: number): string {
  if (!Number.isFinite(percent) || percent <= 0) return '0%';
  // The nudge keeps 99.7 (996.9999… tenths in floating point) from dropping a tenth.
  const tenths = percent * 10;
  if (percent < 99) return `${Math.floor(percent + 1e-9)}%`;
  if (percent < 100) return `${trimZeros((Math.min(999, Math.floor(tenths + 1e-6)) / 10).toFixed(1))}%`;
  if (percent === 100) return '100%';
  if (percent < 101) return `${trimZeros((Math.max(1001, Math.ceil(tenths - 1e-6)) / 10).toFixed(1))}%`;
  return `${Math.floor(percent)}%`;
}

/**
 * Whether the session's budget and cost hold our estimate: a budget settles each call to the provider's
 * figures, and a call's cost uses them, so only a model we count approximately whose provider reports
 * nothing (VS Code's language models) is left with our scaled estimate.
 */
export function heldAsEstimate(meter: Pick<ContextMeter, 'estimated' | 'totals' | 'calls'>): boolean {
  const reported = meter.totals !== undefined && meter.calls > 0 && meter.totals.reportedCalls >= meter.calls;
  return meter.estimated && !reported;
}

/** The budget's use as shown ("≈ 99.6%"), with the estimate marker while it holds our estimate. */
export function budgetLabel(meter: Pick<ContextMeter, 'budget' | 'estimated' | 'totals' | 'calls'>): string {
  const shown = formatUsedPercent(meter.budget?.usedPercent ?? 0);
  return heldAsEstimate(meter) ? `≈ ${shown}` : shown;
}
