// Money as the panel, the status bar and the CLI show it: one rule, so they never disagree.

/**
 * Cents from a cent up; below a cent two significant digits, however small, so a cheap call is never shown
 * as nothing ("$0.0000" for $0.00003 of gpt-5-nano). Only 0 reads "$0".
 */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return '–';
  if (usd === 0) return '$0';
  const abs = Math.abs(usd);
  const sign = usd < 0 ? '−' : '';
  if (abs >= 0.01) return `${sign}$${abs.toFixed(2)}`;
  return `${sign}$${abs.toLocaleString('en-US', { maximumSignificantDigits: 2, maximumFractionDigits: 20 })}`;
}
