// Token counts as the panel and the status bar show them: one rule, so the two never disagree.

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
