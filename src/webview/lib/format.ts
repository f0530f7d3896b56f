// Number and label formatting for the panel. Pure (no DOM) so node tests cover it.
import type { ChatStatus, ContextMeter } from '../../protocol/chat';
import { budgetLabel, formatTokens, formatUsedPercent, trimZeros as trim } from '../../protocol/token-count';

// The status bar shows these by the same rules.
export { budgetLabel, formatTokens, formatUsedPercent };

/** A share in [0, 1] as "42%"; small non-zero shares keep one decimal so they do not read as 0. */
export function formatPercent(share: number): string {
  if (!Number.isFinite(share) || share <= 0) return '0%';
  const pct = share * 100;
  return pct < 10 ? `${trim(pct.toFixed(1))}%` : `${Math.round(pct)}%`;
}

// Money: the status bar and the CLI show it by the same rule.
export { formatUsd } from '../../protocol/money';

/** 850 -> "850 ms", 12_300 -> "12.3 s", 125_000 -> "2m 5s". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${trim((ms / 1000).toFixed(1))} s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m ${Math.round((ms - m * 60_000) / 1000)}s`;
}

/** A token count as shown, with the estimate marker when the counts are chars/4. */
export function tokenLabel(n: number, estimated: boolean): string {
  return estimated ? `≈ ${formatTokens(n)}` : formatTokens(n);
}

/** Share of the context window in use, clamped to [0, 1] for the bar (the text shows the real numbers). */
export function windowShare(meter: Pick<ContextMeter, 'tokensInWindow' | 'contextWindow'>): number {
  if (meter.contextWindow <= 0) return 0;
  return Math.min(1, Math.max(0, meter.tokensInWindow / meter.contextWindow));
}

export function cachedShare(meter: Pick<ContextMeter, 'tokensInWindow' | 'cachedTokens'>): number {
  if (meter.tokensInWindow <= 0) return 0;
  return Math.min(1, Math.max(0, meter.cachedTokens / meter.tokensInWindow));
}

const STATUS_TEXT: Record<ChatStatus, string> = {
  idle: 'Ready',
  running: 'Running…',
  completed: 'Completed',
  'max-turns': 'Stopped: turn limit reached',
  aborted: 'Stopped',
  budget: 'Stopped: budget exceeded',
  error: 'Failed',
  'not-sent': 'Not sent: too long for the window',
};

export function statusText(status: ChatStatus): string {
  return STATUS_TEXT[status] ?? status;
}

/** Lines in a text, for "N lines" labels (a trailing newline does not start a line). */
export function countLines(text: string): number {
  if (text === '') return 0;
  const n = text.split('\n').length;
  return text.endsWith('\n') ? n - 1 : n;
}

/** Pretty-prints a tool call's JSON arguments; text that is not JSON is shown as sent. */
export function prettyArguments(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}
