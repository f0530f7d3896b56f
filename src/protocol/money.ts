// Money as the panel, the status bar and the CLI show it: one rule, so they never disagree.
import { formatDecimal, formatSignificant } from '../core/numbers';

/**
 * `n` rounded half up (away from zero) to `digits` decimals, as the decimal it is written as: $0.015 is
 * $0.02. `toFixed` and `Math.round(n * 100) / 100` round the binary float, which lies just under many
 * halves (0.015 is 0.01499999…), so they gave $0.01; this rounds the shortest decimal that reads back as
 * `n`, i.e. the figure a person would write, half away from zero, as Intl does (core/numbers.ts).
 */
export function roundDecimalText(n: number, digits: number): string {
  return formatDecimal(n, { minFraction: digits, maxFraction: digits, grouping: false });
}

/** `n` rounded half up to `digits` decimals (see roundDecimalText), as a number (for JSON and CSV). */
export function roundDecimal(n: number, digits: number): number {
  if (!Number.isFinite(n)) return n;
  return Number(roundDecimalText(n, digits));
}

/**
 * Cents from a cent up; below a cent two significant digits, however small, so a cheap call is never shown
 * as nothing ("$0.0000" for $0.00003 of gpt-5-nano). Only 0 reads "$0". Halves round up ($0.015: "$0.02").
 */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd)) return '–';
  if (usd === 0) return '$0';
  const abs = Math.abs(usd);
  const sign = usd < 0 ? '−' : '';
  if (abs >= 0.01) return `${sign}$${roundDecimalText(abs, 2)}`;
  return `${sign}$${formatSignificant(abs, 2)}`;
}
